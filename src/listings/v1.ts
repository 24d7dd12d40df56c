// What /v1 mounts: the versioned platform API. Clients, projects and invoices are the very same
// routers as under /api/workflow (recurring invoices, time entries and quotes too); gigs, transfers and the co-pilot live only here.
import { createRouter } from '../lib/router';
import { clientRoutes } from '../modules/clients/routes';
import { creditNoteRoutes } from '../modules/credit-notes/routes';
import { gigRoutes } from '../modules/gigs/routes';
import { invoiceRoutes } from '../modules/invoices/routes';
import { invoicePaymentRoutes } from '../modules/payments/routes';
import { projectRoutes } from '../modules/projects/routes';
import { quoteRoutes } from '../modules/quotes/routes';
import { recurringInvoiceRoutes } from '../modules/recurring-invoices/routes';
import { suggestionRoutes } from '../modules/suggestions/routes';
import { invoiceFromTimeRoutes } from '../modules/time-entries/invoice-routes';
import { timeEntryRoutes } from '../modules/time-entries/routes';
import { transferRoutes } from '../modules/transfers/routes';

export const v1Listing = createRouter()
  .route('/', clientRoutes)
  .route('/', projectRoutes)
  .route('/', invoiceRoutes)
  .route('/', invoicePaymentRoutes)
  .route('/', creditNoteRoutes)
  .route('/', invoiceFromTimeRoutes)
  .route('/', recurringInvoiceRoutes)
  .route('/', quoteRoutes)
  .route('/', timeEntryRoutes)
  .route('/', gigRoutes)
  .route('/', transferRoutes)
  .route('/', suggestionRoutes);
