// What /v1 mounts: the versioned platform API. Clients, projects and invoices are the very same
// routers as under /api/workflow (recurring invoices, time entries and quotes too); gigs, transfers and the co-pilot live only here.
import type { LazyMount } from '../http/lazy-routes';
import * as R from './routers';

export const v1Listing: LazyMount[] = [
  R.clientRoutes, R.projectRoutes, R.invoiceRoutes, R.invoicePaymentRoutes, R.creditNoteRoutes, R.invoiceFromTimeRoutes,
  R.recurringInvoiceRoutes, R.quoteRoutes, R.timeEntryRoutes, R.reportRoutes, R.gigRoutes, R.transferRoutes, R.suggestionRoutes, R.exportRoutes,
].map((router) => ({ at: '/v1', router }));
