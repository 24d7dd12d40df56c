// The module routers, each loaded on the first request to a path it serves (http/lazy-routes.ts),
// with the first segments of those paths under its mount. A router's paths outside them would
// answer 404: test/app/lazy-routes.test.ts checks each router against its list.
import { lazyRouter } from '../http/lazy-routes';

export const publicAccessRoutes = lazyRouter(['/waitlist', '/invitations'], async () => (await import('../modules/access/routes')).publicAccessRoutes);
export const adminRoutes = lazyRouter(['/waitlist', '/invitations'], async () => (await import('../modules/access/routes')).adminRoutes);
export const accountRoutes = lazyRouter(['/me', '/keys'], async () => (await import('../modules/access/routes')).accountRoutes);
export const clientRoutes = lazyRouter(['/clients'], async () => (await import('../modules/clients/routes')).clientRoutes);
export const projectRoutes = lazyRouter(['/projects'], async () => (await import('../modules/projects/routes')).projectRoutes);
export const invoiceRoutes = lazyRouter(['/invoices'], async () => (await import('../modules/invoices/routes')).invoiceRoutes);
export const invoicePaymentRoutes = lazyRouter(['/invoices'], async () => (await import('../modules/payments/routes')).invoicePaymentRoutes);
export const creditNoteRoutes = lazyRouter(['/invoices', '/credit-notes'], async () => (await import('../modules/credit-notes/routes')).creditNoteRoutes);
export const invoiceFromTimeRoutes = lazyRouter(['/invoices'], async () => (await import('../modules/time-entries/invoice-routes')).invoiceFromTimeRoutes);
export const recurringInvoiceRoutes = lazyRouter(['/recurring-invoices'], async () => (await import('../modules/recurring-invoices/routes')).recurringInvoiceRoutes);
export const quoteRoutes = lazyRouter(['/quotes'], async () => (await import('../modules/quotes/routes')).quoteRoutes);
export const expenseRoutes = lazyRouter(['/expenses'], async () => (await import('../modules/expenses/routes')).expenseRoutes);
export const timeEntryRoutes = lazyRouter(['/time-entries'], async () => (await import('../modules/time-entries/routes')).timeEntryRoutes);
export const dashboardRoutes = lazyRouter(['/dashboard'], async () => (await import('../modules/dashboard/routes')).dashboardRoutes);
export const reportRoutes = lazyRouter(['/reports'], async () => (await import('../modules/reports/routes')).reportRoutes);
export const rateRoutes = lazyRouter(['/rates'], async () => (await import('../modules/rates/routes')).rateRoutes);
export const eventRoutes = lazyRouter(['/events'], async () => (await import('../modules/event-feed/routes')).eventRoutes);
export const workspaceRoutes = lazyRouter(['/workspaces', '/workspace'], async () => (await import('../modules/workspaces/routes')).workspaceRoutes);
export const inboundAddressRoutes = lazyRouter(['/workspace'], async () => (await import('../modules/inbound-documents/address-routes')).inboundAddressRoutes);
export const paymentProviderRoutes = lazyRouter(['/workspace'], async () => (await import('../modules/payments/routes')).paymentProviderRoutes);
export const payoutProviderRoutes = lazyRouter(['/workspace'], async () => (await import('../modules/transfers/routes')).payoutProviderRoutes);
export const webhookRoutes = lazyRouter(['/webhook-endpoints', '/events'], async () => (await import('../modules/webhooks/routes')).webhookRoutes);
export const gigRoutes = lazyRouter(['/gigs'], async () => (await import('../modules/gigs/routes')).gigRoutes);
export const proposalRoutes = lazyRouter(['/gigs', '/proposals'], async () => (await import('../modules/proposals/routes')).proposalRoutes);
export const transferRoutes = lazyRouter(['/remit'], async () => (await import('../modules/transfers/routes')).transferRoutes);
export const exportRoutes = lazyRouter(['/exports'], async () => (await import('../modules/exports/routes')).exportRoutes);
export const suggestionRoutes = lazyRouter(['/ai'], async () => (await import('../modules/suggestions/routes')).suggestionRoutes);
export const inboundDocumentRoutes = lazyRouter(['/inbound-documents'], async () => (await import('../modules/inbound-documents/routes')).inboundDocumentRoutes);
export const inboundReviewRoutes = lazyRouter(['/inbound-documents'], async () => (await import('../modules/inbound-documents/review-routes')).inboundReviewRoutes);

// The pages and callbacks around the API: each serves everything under its mount.
export const hostedInvoiceRoutes = lazyRouter(['/'], async () => (await import('../modules/invoices/hosted-routes')).hostedInvoiceRoutes);
export const hostedPayRoutes = lazyRouter(['/'], async () => (await import('../modules/payments/public-routes')).hostedPayRoutes);
export const hostedCreditNoteRoutes = lazyRouter(['/'], async () => (await import('../modules/credit-notes/hosted-routes')).hostedCreditNoteRoutes);
export const hostedQuoteRoutes = lazyRouter(['/'], async () => (await import('../modules/quotes/hosted-routes')).hostedQuoteRoutes);
export const exportDownloadRoutes = lazyRouter(['/'], async () => (await import('../modules/exports/download-routes')).exportDownloadRoutes);
export const providerWebhookRoutes = lazyRouter(['/'], async () => (await import('../modules/payments/public-routes')).providerWebhookRoutes);
export const payoutWebhookRoutes = lazyRouter(['/'], async () => (await import('../modules/transfers/wise-webhook')).payoutWebhookRoutes);
export const sandboxRoutes = lazyRouter(['/'], async () => (await import('../modules/payments/public-routes')).sandboxRoutes);
