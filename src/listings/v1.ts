// What /v1 mounts: the versioned platform API. Clients, projects and invoices are the very same
// routers as under /api/workflow (recurring invoices, time entries and quotes too); gigs, proposals, transfers, the
// co-pilot and inbound documents live only here.
import type { LazyMount } from '../http/lazy-routes';
import * as R from './routers';

export const v1Listing: LazyMount[] = [
  R.clientRoutes, R.projectRoutes, R.invoiceRoutes, R.invoicePaymentRoutes, R.creditNoteRoutes, R.invoiceFromTimeRoutes,
  R.recurringInvoiceRoutes, R.quoteRoutes, R.timeEntryRoutes, R.reportRoutes, R.gigRoutes, R.proposalRoutes, R.transferRoutes, R.suggestionRoutes,
  R.exportRoutes, R.inboundDocumentRoutes, R.inboundReviewRoutes,
].map((router) => ({ at: '/v1', router }));
