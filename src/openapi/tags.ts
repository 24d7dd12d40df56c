// What each group of operations in /openapi.json is for: the headings of the reference at /docs.
const TAGS: Record<string, string> = {
  Meta: 'Whether the service is up, and its version.',
  Access: 'Joining by invitation, who you are, and your API keys.',
  Admin: 'The operator\'s own routes (ADMIN_TOKEN): the waitlist and invitations to join.',
  Workspaces: 'Workspaces, their settings (issuer, currency, time zone, reminders), members and invitations.',
  Clients: 'The people and companies a workspace bills. A `locale` (BCP 47; null: the workspace\'s) is the language of their documents, fixed on each when sent.',
  Projects: 'Work for a client, with a budget, an hourly rate and totals.',
  Invoices: 'Invoices from draft to paid: lines, sending, the client\'s page and PDF, payments, voiding.',
  Payments: 'Getting paid: payments recorded by hand or received online through the workspace\'s payment provider (Stripe or the sandbox), checkout attempts from the hosted page, and refunds.',
  'Credit notes': 'Corrections of an open or paid invoice, with their own numbers, documents and refunds.',
  'Time entries': 'Time worked on projects, as finished entries or running timers, with rounding, a summary per project, user or client, and invoices drafted from the unbilled time.',
  Quotes: 'Quotes on the invoice\'s line and tax model that the client accepts or declines on a hosted page (`/q/<token>`), converted into one draft invoice each. Their own numbering (`quote_prefix`). Never counted in the dashboard.',
  'Recurring invoices': 'Invoices issued on a schedule, as drafts or sent by themselves.',
  Expenses: 'What the business or a project spent.',
  'Inbound documents': 'Costs as they arrive: e-invoices (CII, UBL, Factur-X), PDFs and photos of receipts, uploaded, emailed or delivered by another workspace, each read on a queue and checked against EN 16931.',
  Dashboard: 'Invoiced, collected, tax collected, outstanding, expenses and profit over a period, in one currency.',
  Reports: 'The books: each record at its own date\'s rate.',
  Rates: 'The cached exchange rates every conversion uses.',
  Events: 'The record of every change, with who made it (kept 30 days).',
  Webhooks: 'Endpoints that receive events, and their deliveries. Each event type below is POSTed, signed by Standard Webhooks, to every enabled endpoint subscribed to it (or to `*`) when it happens: the event as GET /api/events/{id} returns it, its record in `data.object`, with the headers and expecting the answer `webhook.test` declares.',
  Gigs: 'The public gig board, and the proposals workspaces send for each other\'s gigs.',
  Transfers: 'Money sent abroad, quoted at the cached rates and paid out through a queue.',
  Exports: 'DATEV bookings and period bundles for the accountant.',
  'Co-pilot': 'Plans, estimates, pricing and messages suggested from a task and your own records.',
};

type Doc = { paths?: Record<string, Record<string, { tags?: string[] }>>; webhooks?: Record<string, Record<string, { tags?: string[] }>>; tags?: { name: string; description?: string }[] };

/** The document's `tags`: every tag an operation or webhook uses, in the order first used, each with its description. */
export function withTagDescriptions<T extends object>(document: T): T {
  const doc = document as Doc;
  const used = [...Object.values(doc.paths ?? {}), ...Object.values(doc.webhooks ?? {})].flatMap((item) => Object.values(item).flatMap((o) => o.tags ?? []));
  doc.tags = [...new Set(used)].map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) }));
  return document;
}
