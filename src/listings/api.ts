// What /api mounts: access (public, admin, account), workspaces, the workflow, exchange rates, events
// and webhooks.
import { createRouter } from '../lib/router';
import { accountRoutes, adminRoutes, publicAccessRoutes } from '../modules/access/routes';
import { clientRoutes } from '../modules/clients/routes';
import { creditNoteRoutes } from '../modules/credit-notes/routes';
import { dashboardRoutes } from '../modules/dashboard/routes';
import { eventRoutes } from '../modules/events/routes';
import { expenseRoutes } from '../modules/expenses/routes';
import { invoiceRoutes } from '../modules/invoices/routes';
import { invoicePaymentRoutes, paymentProviderRoutes } from '../modules/payments/routes';
import { projectRoutes } from '../modules/projects/routes';
import { quoteRoutes } from '../modules/quotes/routes';
import { payoutProviderRoutes } from '../modules/transfers/routes';
import { rateRoutes } from '../modules/rates/routes';
import { recurringInvoiceRoutes } from '../modules/recurring-invoices/routes';
import { invoiceFromTimeRoutes } from '../modules/time-entries/invoice-routes';
import { timeEntryRoutes } from '../modules/time-entries/routes';
import { webhookRoutes } from '../modules/webhooks/routes';
import { workspaceRoutes } from '../modules/workspaces/routes';

const workflow = createRouter()
  .route('/', clientRoutes)
  .route('/', projectRoutes)
  .route('/', invoiceRoutes)
  .route('/', invoicePaymentRoutes)
  .route('/', creditNoteRoutes)
  .route('/', invoiceFromTimeRoutes)
  .route('/', recurringInvoiceRoutes)
  .route('/', quoteRoutes)
  .route('/', expenseRoutes)
  .route('/', timeEntryRoutes)
  .route('/', dashboardRoutes);

export const apiListing = createRouter()
  .route('/', publicAccessRoutes)
  .route('/admin', adminRoutes)
  .route('/', accountRoutes)
  .route('/workflow', workflow)
  .route('/', rateRoutes)
  .route('/', eventRoutes)
  .route('/', workspaceRoutes)
  .route('/', paymentProviderRoutes)
  .route('/', payoutProviderRoutes)
  .route('/', webhookRoutes);
