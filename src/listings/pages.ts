// What the app mounts around the API: the hosted invoice, credit-note and quote pages, the
// providers' webhooks and the sandbox provider's checkout.
import type { LazyMount } from '../http/lazy-routes';
import * as R from './routers';

export const pageListing: LazyMount[] = [
  { at: '/i', router: R.hostedInvoiceRoutes },
  // After the hosted routes: their rate limit (use '*' on /i) covers the pay button's press too.
  { at: '/i', router: R.hostedPayRoutes },
  { at: '/c', router: R.hostedCreditNoteRoutes },
  { at: '/q', router: R.hostedQuoteRoutes },
  // A period bundle's signed download link (§22).
  { at: '/x', router: R.exportDownloadRoutes },
  { at: '/webhooks', router: R.providerWebhookRoutes },
  { at: '/webhooks', router: R.payoutWebhookRoutes },
  // The sandbox provider's checkout: only where PAYMENTS_SANDBOX is "true" (its lookups find nothing otherwise).
  { at: '/sandbox', router: R.sandboxRoutes },
];
