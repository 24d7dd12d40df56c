// What /api mounts: access (public, admin, account), workspaces, the workflow, exchange rates, events
// and webhooks.
import type { LazyMount } from '../http/lazy-routes';
import * as R from './routers';

const workflow = [
  R.clientRoutes, R.projectRoutes, R.invoiceRoutes, R.invoicePaymentRoutes, R.creditNoteRoutes, R.invoiceFromTimeRoutes,
  R.recurringInvoiceRoutes, R.quoteRoutes, R.expenseRoutes, R.timeEntryRoutes, R.dashboardRoutes,
];

export const apiListing: LazyMount[] = [
  { at: '/api', router: R.publicAccessRoutes },
  { at: '/api/admin', router: R.adminRoutes },
  { at: '/api', router: R.accountRoutes },
  ...workflow.map((router) => ({ at: '/api/workflow', router })),
  ...[R.rateRoutes, R.eventRoutes, R.workspaceRoutes, R.inboundAddressRoutes, R.paymentProviderRoutes, R.payoutProviderRoutes, R.webhookRoutes].map((router) => ({ at: '/api', router })),
];
