// Request examples for the reference at /docs: what "Try it out" fills a body with. Realistic
// values (a client called Acme GmbH, a line "Design work"), never the generator's "string", and
// never a fixed invoice number (the second try would collide): the server numbers invoices.
// Keyed by operationId.
import { addDays, todayUtc } from '../lib/time';

const CLIENT_ID = 'cli_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
const PROJECT_ID = 'prj_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
const ENDPOINT_ID = 'we_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
const acme = { line1: 'Torstraße 49', city: 'Berlin', postal_code: '10119', country: 'DE' };
const designWork = { description: 'Design work', quantity: 12.5, unit_amount: 9_500, tax_rate: 19 };

/** Dates an example needs to be valid on the day it is read (a recurring invoice starts today or later). */
function examples(today: string): Record<string, unknown> {
  return {
    joinWaitlist: { email: 'ada@example.com', name: 'Ada Lovelace', company: 'Analytical Studio' },
    acceptInvitation: { code: 'wsi_paste-the-code-from-your-invitation', name: 'Ada Lovelace' },
    createInvitation: { email: 'ada@example.com', expires_in_days: 7 },
    createApiKey: { name: 'Bookkeeping export' },
    createWorkspace: { name: 'Lovelace Design Studio' },
    updateWorkspace: {
      default_currency: 'EUR', time_zone: 'Europe/Berlin', locale: 'de-DE',
      issuer: { legal_name: 'Lovelace Design GmbH', email: 'billing@lovelace.example', address: { line1: 'Oranienstraße 185', city: 'Berlin', postal_code: '10999', country: 'DE' }, tax_id: 'DE123456789' },
      payment_instructions: 'IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX',
    },
    updateMember: { role: 'admin' },
    createWorkspaceInvitation: { email: 'grace@example.com', role: 'member' },
    createWebhookEndpoint: { url: 'https://books.example.com/hooks', description: 'Bookkeeping', events: ['invoice.paid', 'invoice.payment_recorded'] },
    updateWebhookEndpoint: { status: 'enabled' },
    rotateWebhookSecret: { expire_previous_in_hours: 24 },
    recoverWebhookDeliveries: { since: `${addDays(today, -1)}T00:00:00Z` },
    resendEvent: { endpoint_id: ENDPOINT_ID },
    createClient: { name: 'Acme GmbH', email: 'billing@acme.example', company: 'Acme GmbH', address: acme, currency: 'EUR', tax_id: 'DE987654321' },
    updateClient: { email: 'accounts@acme.example' },
    createProject: { name: 'Website relaunch', client_id: CLIENT_ID, currency: 'EUR', budget: 1_200_000, hourly_rate: 9_500 },
    updateProject: { status: 'on_hold' },
    createInvoice: { client_id: CLIENT_ID, project_id: PROJECT_ID, line_items: [designWork], notes: 'Thank you for your business.' },
    updateInvoice: { line_items: [designWork, { description: 'Design work: extra revisions', quantity: 2, unit_amount: 9_500, tax_rate: 19 }] },
    sendInvoice: { cc: ['accounts@acme.example'], message: 'Thanks for the project!' },
    createExport: { from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-03-31`, kinds: ['invoices', 'credit_notes', 'expenses', 'payments'] },
    createQuote: { client_id: CLIENT_ID, project_id: PROJECT_ID, line_items: [designWork], valid_until: addDays(today, 30), terms: 'Half up front, half on delivery.', on_accept: 'draft_invoice' },
    updateQuote: { valid_until: addDays(today, 45), notes: 'Second round of revisions included.' },
    acceptQuote: { name: 'Ada Lovelace', po_number: 'PO-2026-0042', method: 'email' },
    declineQuote: { reason: 'Over our budget this quarter.' },
    recordInvoicePayment: { amount: 141_313, paid_on: today, method: 'bank_transfer', reference: 'SEPA transfer from Acme GmbH' },
    refundInvoicePayment: { amount: 50_000, reason: 'Design work: two revisions not delivered' },
    createCreditNote: { lines: [{ line_item_id: 'li_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', quantity: 2 }], reason: 'product_unsatisfactory', memo: 'Two hours of design work not delivered' },
    connectPaymentProvider: { provider: 'sandbox' },
    connectPayoutProvider: { provider: 'sandbox' },
    createTimeEntry: { project_id: PROJECT_ID, spent_date: today, duration_seconds: 5_400, task: 'Design work', notes: 'Homepage layout, second round', billable: true },
    updateTimeEntry: { duration_seconds: 7_200, notes: 'Homepage layout, second round and feedback call' },
    // Stopped now: a fixed time could lie before the timer started or in the future.
    stopTimeEntry: {},
    createInvoiceFromTime: { client_id: CLIENT_ID, project_ids: [PROJECT_ID], from: addDays(today, -30), to: today, group_by: 'task', notes: 'Design work for Acme GmbH, last 30 days.' },
    createRecurringInvoice: { client_id: CLIENT_ID, line_items: [{ description: 'Design work: monthly retainer', quantity: 1, unit_amount: 250_000, tax_rate: 19 }], interval: 'month', start_date: today },
    updateRecurringInvoice: { auto_send: true },
    createExpense: { category: 'software', description: 'Design tool subscription', vendor: 'Figma', amount: 1_500, currency: 'USD', incurred_on: today },
    updateExpense: { billable: true },
    createGig: { title: 'Logo for a bakery', description: 'A logo and a small style guide for a neighbourhood bakery.', skills: ['logo design', 'branding'], budget_type: 'fixed', budget_min: 50_000, budget_max: 120_000, currency: 'EUR', remote: true },
    updateGig: { status: 'closed' },
    createProposal: { message: 'I designed logos for two bakeries in Berlin; both are linked below.', rate: { type: 'fixed', amount: 90_000 }, estimate_hours: 12, available_from: addDays(today, 7), links: ['https://portfolio.example.com/bakeries'] },
    declineProposal: { reason: 'We chose a designer closer to us.' },
    createTransferQuote: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000 },
    createTransfer: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000, recipient: { name: 'Jonas Weber', country: 'DE', account: { iban: 'DE89370400440532013000' } }, reference: 'Invoice from Jonas' },
    updateInboundDocument: { extracted: { number: 'R-2026-0117', due_date: addDays(today, 14), supplier: { vat_id: 'DE811907980' } } },
    acceptInboundDocument: { project_id: PROJECT_ID, category: 'software', billable: false, description: 'Hosting, March' },
    rejectInboundDocument: { reason: 'Addressed to another company' },
    createSuggestion: { task: 'Estimate a website relaunch for Acme GmbH: five pages, a blog and a contact form.', kind: 'estimate', project_id: PROJECT_ID },
  };
}

type Json = Record<string, unknown>;
type Media = { content?: Record<string, { example?: unknown }> };

/** Puts each operation's example on its JSON request body (in components.requestBodies when shared). */
export function withRequestExamples<T extends object>(document: T): T {
  const doc = document as { paths?: Record<string, Record<string, Json>>; components?: { requestBodies?: Record<string, Media> } };
  const byOperation = examples(todayUtc());
  for (const operation of Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item))) {
    const example = byOperation[String(operation.operationId)];
    const body = operation.requestBody as (Media & { $ref?: string }) | undefined;
    if (!example || !body) continue;
    const target = body.$ref ? doc.components?.requestBodies?.[body.$ref.split('/').pop()!] : body;
    const media = target?.content?.['application/json'];
    if (media) media.example = example;
  }
  return document;
}
