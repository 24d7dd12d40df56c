// The database, as drizzle sees it: the source of truth for migrations (`npm run db:generate`).
// Money columns are integers in the currency's minor unit. Timestamps are RFC 3339 strings with
// milliseconds; calendar dates are YYYY-MM-DD strings, so both sort and compare as text.
// Records belong to a workspace: every such table leads its indexes with workspace_id, since each
// query filters by workspace first. `user_id` on a record says which user made it.
import { sql } from 'drizzle-orm';
import { type AnySQLiteColumn, check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// The workspace a record belongs to. Migration 0006 added it to tables that already had rows, as a
// nullable column (SQLite cannot add a NOT NULL reference), backfilled every row and every write
// sets it; so the schema, and the types drizzle derives from it, treat it as NOT NULL.
const workspaceColumn = () => text('workspace_id').notNull().references((): AnySQLiteColumn => workspaces.id, { onDelete: 'cascade' });

const timestamps = {
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
};

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  // Before workspaces: the user's invoice counter. Migration 0006 carried it over to the personal
  // workspace (workspaces.invoice_seq); nothing reads it since.
  invoiceSeq: integer('invoice_seq').notNull().default(0),
  createdAt: text('created_at').notNull(),
});

export const workspaces = sqliteTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    // Set on the one personal workspace each user gets at signup; null on the ones made later.
    personalUserId: text('personal_user_id').unique().references(() => users.id, { onDelete: 'cascade' }),
    // The last default invoice number handed out (prefix + 000001 is 1); bumped in the same batch as the insert.
    invoiceSeq: integer('invoice_seq').notNull().default(0),
    invoicePrefix: text('invoice_prefix').notNull().default('INV-'),
    timeZone: text('time_zone').notNull().default('UTC'),
    locale: text('locale').notNull().default('en-US'),
    // JSON {legal_name, email, address:{…}, tax_id}, or null while unset.
    issuer: text('issuer'),
    paymentInstructions: text('payment_instructions'),
    remindersEnabled: integer('reminders_enabled', { mode: 'boolean' }).notNull().default(false),
    // JSON array of whole days after the due date, e.g. [3,10].
    reminderDays: text('reminder_days').notNull().default('[3,10]'),
    // ISO 4217: what a new client's `currency` defaults to.
    defaultCurrency: text('default_currency').notNull().default('USD'),
    ...timestamps,
    // The D1 binding that holds this workspace's records (src/lib/databases.ts); null means DB, where
    // every workspace made before there was a choice lives. Only the directory's copy is read for it.
    database: text('database'),
    /** Whether the hosted page's pay button lets the client choose an amount below what is due (§16). */
    paymentsAllowPartial: integer('payments_allow_partial', { mode: 'boolean' }).notNull().default(false),
    // §15: how a new invoice rounds its tax (copied onto it, and never changed on it after).
    taxRounding: text('tax_rounding', { enum: ['line', 'group'] }).notNull().default('line'),
    // §15: a sent invoice's PDF is the Factur-X PDF/A-3b when it is ready in CII (`facturx`), or always the plain one.
    einvoicePdf: text('einvoice_pdf', { enum: ['facturx', 'plain'] }).notNull().default('facturx'),
    // §17: credit notes have their own sequence (prefix + 000001 is 1), bumped like invoice_seq.
    creditNoteSeq: integer('credit_note_seq').notNull().default(0),
    creditNotePrefix: text('credit_note_prefix').notNull().default('CN-'),
    // §18: quotes have their own sequence, bumped in the batch that writes the quote, as invoices' is.
    quoteSeq: integer('quote_seq').notNull().default(0),
    quotePrefix: text('quote_prefix').notNull().default('QUO-'),
  },
);

export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const memberships = sqliteTable(
  'memberships',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('memberships_workspace_user_uq').on(t.workspaceId, t.userId), index('memberships_user_idx').on(t.userId)],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    // SHA-256 of the whole key, hex. The key itself is never stored.
    keyHash: text('key_hash').notNull().unique(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.id)],
);

export const waitlist = sqliteTable(
  'waitlist',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    name: text('name'),
    company: text('company'),
    note: text('note'),
    status: text('status', { enum: ['waiting', 'invited', 'joined'] }).notNull().default('waiting'),
    ...timestamps,
  },
  (t) => [index('waitlist_status_idx').on(t.status, t.id)],
);

export const invitations = sqliteTable('invitations', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  // SHA-256 of the code, hex: a database leak does not hand out invitations.
  codeHash: text('code_hash').notNull().unique(),
  expiresAt: text('expires_at').notNull(),
  createdAt: text('created_at').notNull(),
  acceptedAt: text('accepted_at'),
  acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
  // signup: a new person (user + personal workspace); recovery: a new owner key for an existing
  // account's personal workspace; workspace: a membership in workspace_id with role.
  kind: text('kind', { enum: ['signup', 'recovery', 'workspace'] }).notNull().default('signup'),
  workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
  role: text('role', { enum: ROLES }),
  invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
  withdrawnAt: text('withdrawn_at'),
  // A workspace invitation's code is emailed to the invitee only (never shown to the inviter): it is
  // derived again from the id when the email is composed (invitation-code.ts). The email's state:
  emailStatus: text('email_status', { enum: ['queued', 'sent', 'failed'] }),
  emailAttempts: integer('email_attempts').notNull().default(0),
  emailError: text('email_error'),
  emailNextAttemptAt: text('email_next_attempt_at'),
  emailLeaseUntil: text('email_lease_until'),
  // Idempotent acceptance: SHA-256 of the Idempotency-Key and of the canonical request that accepted
  // it, and the key it minted, so a retry within 24 h replays the answer (with the secret null).
  acceptKeyHash: text('accept_key_hash'),
  acceptRequestHash: text('accept_request_hash'),
  acceptedKeyId: text('accepted_key_id'),
}, (t) => [
  index('invitations_workspace_idx').on(t.workspaceId, t.id),
  index('invitations_inviter_idx').on(t.invitedBy),
  index('invitations_email_due_idx').on(t.emailStatus, t.emailNextAttemptAt),
]);

export const clients = sqliteTable(
  'clients',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    name: text('name').notNull(),
    email: text('email'),
    company: text('company'),
    phone: text('phone'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    addressCity: text('address_city'),
    addressRegion: text('address_region'),
    addressPostalCode: text('address_postal_code'),
    addressCountry: text('address_country'),
    currency: text('currency').notNull().default('USD'),
    taxId: text('tax_id'),
    notes: text('notes'),
    status: text('status', { enum: ['active', 'archived'] }).notNull().default('active'),
    ...timestamps,
    // §15: the client's Peppol participant id ("0088:5790000435975") and the reference its invoices
    // quote (BT-10, a German Leitweg-ID). Its VAT id is tax_id.
    peppolId: text('peppol_id'),
    buyerReference: text('buyer_reference'),
  },
  (t) => [index('clients_workspace_idx').on(t.workspaceId, t.id), index('clients_workspace_status_idx').on(t.workspaceId, t.status, t.id)],
);

export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status', { enum: ['active', 'on_hold', 'completed', 'archived'] }).notNull().default('active'),
    currency: text('currency').notNull().default('USD'),
    budget: integer('budget'),
    hourlyRate: integer('hourly_rate'),
    startDate: text('start_date'),
    dueDate: text('due_date'),
    ...timestamps,
    // How its time entries are billed (§19): both null (to the second), or an increment in minutes
    // and a mode (up, nearest, down). Applied per entry when read; the raw duration is never changed.
    timeRoundingMinutes: integer('time_rounding_minutes'),
    timeRoundingMode: text('time_rounding_mode', { enum: ['up', 'nearest', 'down'] }),
  },
  (t) => [
    index('projects_workspace_idx').on(t.workspaceId, t.id),
    index('projects_workspace_status_idx').on(t.workspaceId, t.status, t.id),
    index('projects_workspace_client_idx').on(t.workspaceId, t.clientId, t.id),
    check('projects_budget_nonneg', sql`${t.budget} IS NULL OR ${t.budget} >= 0`),
    check('projects_rate_nonneg', sql`${t.hourlyRate} IS NULL OR ${t.hourlyRate} >= 0`),
  ],
);

export const invoices = sqliteTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    number: text('number').notNull(),
    status: text('status', { enum: ['draft', 'open', 'paid', 'void'] }).notNull().default('draft'),
    // RESTRICT: a client or project with invoices cannot be deleted (the API answers 409 first).
    clientId: text('client_id').notNull().references(() => clients.id, { onDelete: 'restrict' }),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    issueDate: text('issue_date').notNull(),
    dueDate: text('due_date').notNull(),
    // What tax is charged on: Σ line amount − discount_total. The column kept its first name (and its
    // CHECK, total = subtotal + tax, which a document discount would otherwise break); the invoice's
    // subtotal as the API shows it is this + discount_total.
    taxableAmount: integer('subtotal').notNull(),
    tax: integer('tax').notNull(),
    total: integer('total').notNull(),
    amountPaid: integer('amount_paid').notNull().default(0),
    notes: text('notes'),
    sentAt: text('sent_at'),
    paidAt: text('paid_at'),
    voidedAt: text('voided_at'),
    ...timestamps,
    // Set when it is sent (§10) and never changed after: who bills and who pays, as JSON snapshots
    // of the workspace's issuer and of the client, so later edits of either leave it as issued.
    issuer: text('issuer'),
    billTo: text('bill_to'),
    // Also set when it is sent, from the workspace: the language and formats its page, PDF and emails
    // use, and how to pay it. Null on a draft, which shows the workspace's current settings.
    locale: text('locale'),
    paymentInstructions: text('payment_instructions'),
    // The hosted page's link: its token is an HMAC of the id and this version under a server secret,
    // never stored; its SHA-256 is, to find the invoice by it. A new version is a new link.
    linkVersion: integer('link_version'),
    linkHash: text('link_hash'),
    viewedAt: text('viewed_at'),
    /** Where the hosted link points, kept for the emails the cron sends later (reminders). */
    linkOrigin: text('link_origin'),
    // A recurring invoice's period n made this invoice (§12): unique together, so each period makes one.
    recurringInvoiceId: text('recurring_invoice_id'),
    recurringPeriod: integer('recurring_period'),
    /** When the cron wrote invoice.overdue, which it does once. */
    overdueNotifiedAt: text('overdue_notified_at'),
    // Money received beyond the total (two paid checkouts, §16), to be refunded. amount_paid stays
    // within the total (its CHECK), so payments − refunds = amount_paid + overpaid_amount.
    overpaidAmount: integer('overpaid_amount').notNull().default(0),
    // §15. JSON {percent, amount, reason} as given, or null; discount_total is what it took off.
    discount: text('discount'),
    discountTotal: integer('discount_total').notNull().default(0),
    taxRounding: text('tax_rounding', { enum: ['line', 'group'] }).notNull().default('line'),
    /** JSON [{category, rate, taxable_amount, tax_amount, discount_amount, exemption_reason, exemption_code}] */
    taxBreakdown: text('tax_breakdown'),
    taxExemptionReason: text('tax_exemption_reason'),
    taxExemptionCode: text('tax_exemption_code'),
    buyerReference: text('buyer_reference'),
    purchaseOrder: text('purchase_order'),
    // §17: Σ total of its credit notes, never above the total; amount_due = total − credited − paid.
    creditedAmount: integer('credited_amount').notNull().default(0),
    /** JSON array of its credit notes' ids, oldest first; null before the first. */
    creditNoteIds: text('credit_note_ids'),
    // §18: the quote this invoice was converted from; unique, so a quote makes at most one invoice.
    quoteId: text('quote_id'),
  },
  (t) => [
    uniqueIndex('invoices_workspace_number_uq').on(t.workspaceId, t.number),
    uniqueIndex('invoices_quote_uq').on(t.quoteId),
    uniqueIndex('invoices_link_hash_uq').on(t.linkHash),
    uniqueIndex('invoices_recurring_period_uq').on(t.recurringInvoiceId, t.recurringPeriod),
    index('invoices_overdue_watch_idx').on(t.status, t.overdueNotifiedAt, t.dueDate),
    index('invoices_workspace_idx').on(t.workspaceId, t.id),
    index('invoices_workspace_status_idx').on(t.workspaceId, t.status, t.id),
    index('invoices_workspace_status_due_idx').on(t.workspaceId, t.status, t.dueDate),
    // Covering indexes for the dashboard's aggregates: the sums are read from the index alone.
    index('invoices_workspace_issue_totals_idx').on(t.workspaceId, t.issueDate, t.status, t.currency, t.total),
    // What an open invoice still owes is total − credited − paid (§17): all three are in the index.
    index('invoices_workspace_open_owed_idx').on(t.workspaceId, t.status, t.currency, t.dueDate, t.total, t.amountPaid, t.creditedAmount),
    index('invoices_workspace_client_idx').on(t.workspaceId, t.clientId, t.id),
    index('invoices_workspace_project_idx').on(t.workspaceId, t.projectId, t.id),
    check('invoices_amounts_valid', sql`${t.taxableAmount} >= 0 AND ${t.tax} >= 0 AND ${t.total} = ${t.taxableAmount} + ${t.tax}`),
    check('invoices_paid_within_total', sql`${t.amountPaid} >= 0 AND ${t.amountPaid} <= ${t.total}`),
    check('invoices_dates_ordered', sql`${t.dueDate} >= ${t.issueDate}`),
  ],
);

// How many invoices each workspace has in each status, kept by triggers on invoices (migration 0006),
// so the dashboard's counts cost the same at a hundred invoices or a hundred thousand.
export const invoiceStatusCounts = sqliteTable(
  'workspace_invoice_status_counts',
  {
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['draft', 'open', 'paid', 'void'] }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.status] })],
);

// Monthly sums per currency and workspace, kept by triggers (migration 0006), so the dashboard reads a period's
// whole months from here and only its partial months from the rows: constant cost at any size.
// month is YYYY-MM; amounts are minor units of currency.
const monthly = <Extra extends Record<string, ReturnType<typeof integer>>>(name: string, amount: string, extra = {} as Extra) =>
  sqliteTable(
    name,
    {
      workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
      month: text('month').notNull(),
      currency: text('currency').notNull(),
      amount: integer(amount).notNull().default(0),
      ...extra,
    },
    (t) => [primaryKey({ columns: [t.workspaceId, t.month, t.currency] })],
  );

/** Totals of open and paid invoices by issue month. */
export const invoiceMonthlyTotals = monthly('workspace_invoice_monthly_totals', 'invoiced');
/** Payments by the month they were paid on. */
export const paymentMonthlyTotals = monthly('workspace_payment_monthly_totals', 'collected', {
  // Σ payments.tax (migration 0012's triggers).
  taxCollected: integer('tax_collected').notNull().default(0),
});
/** Expenses by the month they were incurred. */
export const expenseMonthlyTotals = monthly('workspace_expense_monthly_totals', 'spent');

export const invoiceLineItems = sqliteTable(
  'invoice_line_items',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    // Thousandths of a unit (1.5 hours = 1500) and thousandths of a percent (8.25 % = 8250):
    // the contract allows three decimals, so both are exact integers.
    quantityMilli: integer('quantity_milli').notNull(),
    unitAmount: integer('unit_amount').notNull(),
    taxRateMilli: integer('tax_rate_milli').notNull().default(0),
    /** The line's net: gross − discount_amount. */
    amount: integer('amount').notNull(),
    /** 0 on an invoice whose tax_rounding is "group", where a line has no tax of its own. */
    tax: integer('tax').notNull(),
    // §15, added later: columns are in table order, which insertLineStatements' VALUES follow.
    /** UN/ECE Rec. 20 code (lib/units.ts). */
    unit: text('unit').notNull().default('C62'),
    discountPercentMilli: integer('discount_percent_milli').notNull().default(0),
    discountAmount: integer('discount_amount').notNull().default(0),
    /** EN 16931 VAT category; the migration set old lines' from their rate and their invoice. */
    taxCategory: text('tax_category', { enum: ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] }).notNull().default('S'),
  },
  (t) => [index('line_items_invoice_idx').on(t.invoiceId, t.position)],
);

export const payments = sqliteTable(
  'payments',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    paidOn: text('paid_on').notNull(),
    method: text('method'),
    reference: text('reference'),
    createdAt: text('created_at').notNull(),
    // §16: typed in by a member (manual) or received through a payment provider (online). The
    // provider's payment id (Stripe: the PaymentIntent) is unique: an event delivered twice, late or
    // out of order records the payment at most once.
    source: text('source', { enum: ['manual', 'online'] }).notNull().default('manual'),
    provider: text('provider'),
    providerPaymentId: text('provider_payment_id'),
    // The tax share of `amount`: amount × invoice tax / invoice total, half away from zero (the
    // dashboard's tax_collected). Set with the payment; a trigger fills it where a writer left it null.
    tax: integer('tax'),
  },
  (t) => [
    index('payments_workspace_paid_on_idx').on(t.workspaceId, t.paidOn, t.currency, t.amount),
    index('payments_invoice_idx').on(t.invoiceId),
    uniqueIndex('payments_provider_payment_uq').on(t.providerPaymentId),
    check('payments_amount_positive', sql`${t.amount} > 0`),
  ],
);

// A workspace's payment provider (§16): at most one connected at a time. Secrets are AES-GCM under
// PAYMENTS_ENCRYPTION_KEY (lib/secret-box.ts), never stored or shown in clear. The id is the last
// part of the webhook URL the workspace registers at its provider.
export const paymentProviders = sqliteTable(
  'payment_providers',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    secretKeySealed: text('secret_key_sealed'),
    webhookSecretSealed: text('webhook_secret_sealed').notNull(),
    keyLast4: text('key_last4'),
    testMode: integer('test_mode', { mode: 'boolean' }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_providers_workspace_uq').on(t.workspaceId)],
);

// One press of the pay button (§16): a checkout at the provider for an amount. Open until the
// provider reports it paid (succeeded), failed, expired or canceled.
export const paymentAttempts = sqliteTable(
  'payment_attempts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    status: text('status', { enum: ['open', 'succeeded', 'failed', 'expired', 'canceled'] }).notNull(),
    checkoutUrl: text('checkout_url'),
    /** The provider's checkout (Stripe: the Checkout Session id). */
    providerCheckoutId: text('provider_checkout_id'),
    /** Why it failed, in words the client can read on the page. */
    failureMessage: text('failure_message'),
    expiresAt: text('expires_at'),
    ...timestamps,
  },
  (t) => [
    index('payment_attempts_invoice_idx').on(t.invoiceId, t.id),
    check('payment_attempts_amount_positive', sql`${t.amount} > 0`),
  ],
);

// Money returned on a payment (§16): through the provider for an online payment, recorded for a
// manual one. A refund that did not fail counts against amount_paid and against `collected` on
// the day it was made (triggers keep the monthly roll-up).
export const refunds = sqliteTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    paymentId: text('payment_id').notNull().references(() => payments.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    // The tax share it gives back: amount × payment tax ÷ payment amount, half away from zero (lib/money.ts
    // taxShare), so tax_collected follows refunds as collected does.
    tax: integer('tax'),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    providerRefundId: text('provider_refund_id'),
    reason: text('reason'),
    /** The day it was made in the workspace's time zone. */
    refundedOn: text('refunded_on').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('refunds_payment_idx').on(t.paymentId, t.id),
    index('refunds_workspace_refunded_on_idx').on(t.workspaceId, t.refundedOn, t.currency, t.amount),
    // The cron's ask-again of refunds the provider never answered reads only these few rows.
    index('refunds_unanswered_idx').on(t.createdAt).where(sql`${t.status} = 'pending' AND ${t.providerRefundId} IS NULL`),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
  ],
);

// Credit notes (§17): final documents that correct an open or paid invoice, with their own number
// from the workspace's credit-note sequence. Their amounts come from the one tax engine, like an
// invoice's; `pre_payment_amount` lowered what was due, `post_payment_amount` was refunded
// (`refund_id`) in the same batch. Never edited or deleted.
export const creditNotes = sqliteTable(
  'credit_notes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    number: text('number').notNull(),
    status: text('status', { enum: ['issued'] }).notNull().default('issued'),
    reason: text('reason', { enum: ['duplicate', 'order_change', 'product_unsatisfactory', 'other'] }).notNull(),
    memo: text('memo'),
    issueDate: text('issue_date').notNull(),
    currency: text('currency').notNull(),
    /** Σ line amount (before the document discount, unlike invoices.subtotal). */
    subtotal: integer('subtotal').notNull(),
    discountTotal: integer('discount_total').notNull().default(0),
    tax: integer('tax').notNull(),
    total: integer('total').notNull(),
    taxRounding: text('tax_rounding', { enum: ['line', 'group'] }).notNull(),
    /** JSON, as invoices.tax_breakdown. */
    taxBreakdown: text('tax_breakdown').notNull(),
    prePaymentAmount: integer('pre_payment_amount').notNull(),
    postPaymentAmount: integer('post_payment_amount').notNull(),
    refundId: text('refund_id'),
    // The hosted link (`/c/<token>`), as an invoice's: only the token's SHA-256 is stored.
    linkVersion: integer('link_version').notNull().default(1),
    linkHash: text('link_hash'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('credit_notes_workspace_number_uq').on(t.workspaceId, t.number),
    uniqueIndex('credit_notes_link_hash_uq').on(t.linkHash),
    index('credit_notes_invoice_idx').on(t.invoiceId, t.id),
    index('credit_notes_workspace_issue_idx').on(t.workspaceId, t.issueDate, t.currency, t.total),
    check('credit_notes_amounts_valid', sql`${t.total} > 0 AND ${t.prePaymentAmount} >= 0 AND ${t.postPaymentAmount} >= 0 AND ${t.prePaymentAmount} + ${t.postPaymentAmount} = ${t.total}`),
  ],
);

/** A credit note's lines: the invoice line it credits (null for a custom line), as invoice lines are stored. */
export const creditNoteLineItems = sqliteTable(
  'credit_note_line_items',
  {
    id: text('id').primaryKey(),
    creditNoteId: text('credit_note_id').notNull().references(() => creditNotes.id, { onDelete: 'cascade' }),
    invoiceLineItemId: text('invoice_line_item_id'),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    quantityMilli: integer('quantity_milli').notNull(),
    unitAmount: integer('unit_amount').notNull(),
    taxRateMilli: integer('tax_rate_milli').notNull().default(0),
    amount: integer('amount').notNull(),
    tax: integer('tax').notNull(),
    unit: text('unit').notNull().default('C62'),
    discountPercentMilli: integer('discount_percent_milli').notNull().default(0),
    discountAmount: integer('discount_amount').notNull().default(0),
    taxCategory: text('tax_category', { enum: ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] }).notNull().default('S'),
  },
  (t) => [
    index('credit_note_lines_note_idx').on(t.creditNoteId, t.position),
    index('credit_note_lines_invoice_line_idx').on(t.invoiceLineItemId),
  ],
);

export const expenses = sqliteTable(
  'expenses',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    category: text('category').notNull(),
    description: text('description'),
    vendor: text('vendor'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    incurredOn: text('incurred_on').notNull(),
    billable: integer('billable', { mode: 'boolean' }).notNull().default(false),
    // The invoice that bills this expense (§19), set by an invoice from time; a deleted draft
    // releases it through this key, a void by an UPDATE in its batch.
    invoiceId: text('invoice_id').references((): AnySQLiteColumn => invoices.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('expenses_invoice_idx').on(t.invoiceId),
    index('expenses_workspace_idx').on(t.workspaceId, t.id),
    index('expenses_workspace_incurred_idx').on(t.workspaceId, t.incurredOn, t.currency, t.amount),
    index('expenses_workspace_project_idx').on(t.workspaceId, t.projectId, t.id),
    check('expenses_amount_positive', sql`${t.amount} > 0`),
  ],
);

// One event per change, written in the same batch as the change (modules/events/record.ts): the
// activity feed, and what webhooks and reminders read. `data` is JSON {object, previous_attributes?};
// `summary` is the one line the dashboard shows.
export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actorType: text('actor_type', { enum: ['user', 'system', 'operator', 'client'] }).notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    objectId: text('object_id').notNull(),
    summary: text('summary').notNull(),
    data: text('data').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('events_workspace_idx').on(t.workspaceId, t.id),
    index('events_workspace_type_idx').on(t.workspaceId, t.type, t.id),
    index('events_created_idx').on(t.createdAt),
  ],
);

// Before workspaces, the dashboard's feed. Migration 0006 copied every row into events; nothing
// writes here any more. Kept, not dropped: migrations only add.
export const activities = sqliteTable(
  'activities',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    subjectId: text('subject_id').notNull(),
    summary: text('summary').notNull(),
    occurredAt: text('occurred_at').notNull(),
  },
  (t) => [index('activities_user_idx').on(t.userId, t.id)],
);

// One row per (workspace, user, Idempotency-Key): the first request's fingerprint and, once it
// finished, its answer. Scoped by workspace, so a key reused in another workspace is a new request.
export const idempotencyKeys = sqliteTable(
  'idempotency_requests',
  {
    workspaceId: text('workspace_id').notNull(),
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    // SHA-256 of method, path and body: a retry must send the same request to get the same answer.
    fingerprint: text('fingerprint').notNull(),
    // in_flight → done (its answer stored), or committed (its change made, answered from its event's
    // record) → done.
    state: text('state', { enum: ['in_flight', 'committed', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    // JSON {headers, body}: the first answer's body text and the headers worth replaying (Location).
    responseBody: text('response_body'),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId, t.key] }), index('idempotency_requests_expires_idx').on(t.expiresAt)],
);

export const gigs = sqliteTable(
  'gigs',
  {
    // An explicit integer rowid, so the FTS5 index (gigs_fts) can point at rows as an external-content table.
    rowid: integer('rowid').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    posterName: text('poster_name').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    // JSON array of lower-case skill names.
    skills: text('skills').notNull().default('[]'),
    budgetType: text('budget_type', { enum: ['fixed', 'hourly'] }).notNull(),
    budgetMin: integer('budget_min').notNull(),
    budgetMax: integer('budget_max').notNull(),
    currency: text('currency').notNull(),
    remote: integer('remote', { mode: 'boolean' }).notNull().default(true),
    location: text('location'),
    status: text('status', { enum: ['open', 'closed'] }).notNull().default('open'),
    expiresOn: text('expires_on'),
    ...timestamps,
  },
  (t) => [
    index('gigs_status_idx').on(t.status, t.id),
    index('gigs_workspace_idx').on(t.workspaceId, t.id),
    check('gigs_budget_ordered', sql`${t.budgetMin} >= 0 AND ${t.budgetMin} <= ${t.budgetMax}`),
  ],
);

export const transfers = sqliteTable(
  'transfers',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    status: text('status', { enum: ['pending', 'processing', 'completed', 'failed', 'cancelled'] }).notNull(),
    sourceCurrency: text('source_currency').notNull(),
    sourceAmount: integer('source_amount').notNull(),
    fee: integer('fee').notNull(),
    targetCurrency: text('target_currency').notNull(),
    targetAmount: integer('target_amount').notNull(),
    // Decimal string (target units per source unit), exact as quoted: never a float in money math.
    rate: text('rate').notNull(),
    rateAsOf: text('rate_as_of').notNull(),
    // JSON: {name, country, account:{iban} | {account_number, bank_code}}
    recipient: text('recipient').notNull(),
    reference: text('reference'),
    failureReason: text('failure_reason'),
    // JSON array of {status, at}
    statusHistory: text('status_history').notNull(),
    payoutId: text('payout_id'),
    enqueuedAt: text('enqueued_at'),
    // While a consumer is paying out, it holds the transfer until this time. A redelivered message
    // finds it held and waits; after a crash the lease runs out and the next delivery takes over.
    leaseUntil: text('lease_until'),
    ...timestamps,
    // The quote (transfer_quotes) whose terms it took, if any.
    quoteId: text('quote_id'),
    // The whole account number (IBAN or local number), sealed (lib/secret-box.ts) and opened only to
    // pay out; `recipient` holds the masked form every read, event and log line shows.
    accountSealed: text('account_sealed'),
    // Who pays it out ('sandbox' | 'wise'), chosen when it is created, and the provider's own
    // transfer id and last state once the provider has it.
    provider: text('provider'),
    providerTransferId: text('provider_transfer_id'),
    providerStatus: text('provider_status'),
  },
  (t) => [
    index('transfers_workspace_idx').on(t.workspaceId, t.id),
    index('transfers_status_updated_idx').on(t.status, t.updatedAt),
    index('transfers_provider_transfer_idx').on(t.provider, t.providerTransferId),
    check('transfers_amounts_valid', sql`${t.sourceAmount} > 0 AND ${t.fee} >= 0 AND ${t.targetAmount} >= 0`),
  ],
);

// A transfer's price held for 30 minutes (§6 "Quote first"): a transfer naming it gets exactly
// these terms while it lives; `used_by` is set, under a guard, by the one transfer that uses it.
export const transferQuotes = sqliteTable(
  'transfer_quotes',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    sourceCurrency: text('source_currency').notNull(),
    sourceAmount: integer('source_amount').notNull(),
    fee: integer('fee').notNull(),
    targetCurrency: text('target_currency').notNull(),
    targetAmount: integer('target_amount').notNull(),
    rate: text('rate').notNull(),
    rateAsOf: text('rate_as_of').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedBy: text('used_by'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('transfer_quotes_workspace_idx').on(t.workspaceId, t.id)],
);

// The workspace's payout provider (§6 "Real payouts"): `wise` with its API token sealed at rest,
// or the development-only `sandbox`. One per workspace.
export const payoutProviders = sqliteTable(
  'payout_providers',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    provider: text('provider', { enum: ['wise', 'sandbox'] }).notNull(),
    apiTokenSealed: text('api_token_sealed'),
    profileId: text('profile_id'),
    tokenLast4: text('token_last4'),
    ...timestamps,
  },
  (t) => [uniqueIndex('payout_providers_workspace_uq').on(t.workspaceId)],
);

export const suggestions = sqliteTable(
  'suggestions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    kind: text('kind', { enum: ['plan', 'estimate', 'pricing', 'message'] }).notNull(),
    task: text('task').notNull(),
    projectId: text('project_id'),
    status: text('status', { enum: ['queued', 'completed', 'failed'] }).notNull(),
    provider: text('provider'),
    // JSON array of {title, detail, estimate_hours?, amount?}
    suggestions: text('suggestions'),
    error: text('error'),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [index('suggestions_workspace_idx').on(t.workspaceId, t.id)],
);

// Webhook endpoints (§11): where a workspace's events are POSTed. The signing secret must stay
// usable, so it is kept AES-GCM-encrypted (modules/webhooks/secrets.ts), never hashed; during a
// rotation the previous one signs too until `previous_secret_expires_at`. `failing_since` is the
// first failed attempt since the last success: five days of that disables the endpoint.
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    url: text('url').notNull(),
    description: text('description'),
    /** JSON array of event types, or ["*"]. */
    events: text('events').notNull(),
    status: text('status', { enum: ['enabled', 'disabled'] }).notNull(),
    disabledReason: text('disabled_reason', { enum: ['gone', 'failing', 'manual'] }),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: text('previous_secret_expires_at'),
    failingSince: text('failing_since'),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_workspace_idx').on(t.workspaceId, t.status, t.id)],
);

// One row per delivery attempt (`whd_`): an attempt that fails writes the next one, due at
// `next_attempt_at`. Its state lives here, not in the queue: a cron sweep re-enqueues every due
// attempt that is not leased, so a lost message loses nothing, and the lease (claimed with a guarded
// UPDATE) keeps a duplicate message from sending twice. `payload` holds what is not in `events`:
// the `webhook.test` event. Rows are written for an event by the trigger of migration 0007, in the
// event's own batch.
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload'),
    attempt: integer('attempt').notNull().default(1),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    nextAttemptAt: text('next_attempt_at'),
    enqueuedAt: text('enqueued_at'),
    leaseUntil: text('lease_until'),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

// The email outbox (§10): one row per email (an invoice sent, a reminder), written in the batch of
// what caused it and sent by the emails queue consumer, which claims it under a lease. Failed
// attempts are retried after 1 min, 10 min, 1 h and 6 h; after the fifth it is `failed`.
export const emailDeliveries = sqliteTable(
  'email_deliveries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['invoice', 'reminder', 'receipt', 'credit_note'] }).notNull(),
    /** JSON arrays of addresses. */
    to: text('to').notNull(),
    cc: text('cc').notNull(),
    message: text('message'),
    /** The origin the invoice's link is built on (its token is derived again when the email is composed). */
    linkOrigin: text('link_origin').notNull(),
    /** For a reminder: which of the workspace's days_after_due it is for (one each per invoice). */
    reminderDay: integer('reminder_day'),
    status: text('status', { enum: ['queued', 'sent', 'failed'] }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: text('next_attempt_at'),
    leaseUntil: text('lease_until'),
    sentAt: text('sent_at'),
    createdAt: text('created_at').notNull(),
    /** For a receipt: the payment it confirms. */
    paymentId: text('payment_id'),
    /** For a credit note's email: the credit note it carries. */
    creditNoteId: text('credit_note_id'),
  },
  (t) => [
    index('email_deliveries_invoice_idx').on(t.invoiceId, t.id),
    index('email_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    uniqueIndex('email_deliveries_reminder_uq').on(t.invoiceId, t.reminderDay),
  ],
);

// Recurring invoices (§12): a schedule that issues an invoice on start_date + n × interval (n = 0,
// 1, …), each period once. `next_period` is n of the next invoice and `next_issue_date` its date,
// kept for the cron's index: its cost follows what is due, not how many schedules exist.
export const recurringInvoices = sqliteTable(
  'recurring_invoices',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    status: text('status', { enum: ['active', 'paused', 'completed', 'canceled'] }).notNull(),
    clientId: text('client_id').notNull().references(() => clients.id, { onDelete: 'restrict' }),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    /** JSON: the line items as sent ({description, quantity, unit_amount, tax_rate}). */
    lineItems: text('line_items').notNull(),
    notes: text('notes'),
    dueInDays: integer('due_in_days').notNull(),
    interval: text('interval', { enum: ['week', 'month', 'year'] }).notNull(),
    intervalCount: integer('interval_count').notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date'),
    maxOccurrences: integer('max_occurrences'),
    autoSend: integer('auto_send', { mode: 'boolean' }).notNull(),
    timeZone: text('time_zone').notNull(),
    nextPeriod: integer('next_period').notNull(),
    nextIssueDate: text('next_issue_date'),
    /** When next_issue_date begins in time_zone (UTC): the cron's "is it due" is one comparison on an index. */
    nextIssueAt: text('next_issue_at'),
    invoicesCreated: integer('invoices_created').notNull(),
    lastInvoiceId: text('last_invoice_id'),
    /** Where the hosted links of invoices it sends point (the origin of the request that created it). */
    linkOrigin: text('link_origin').notNull(),
    ...timestamps,
    // §15, passed on to every invoice it issues: the workspace's tax_rounding when it was created,
    // the document discount (JSON, as on invoices), the exemption, and the buyer's references.
    taxRounding: text('tax_rounding', { enum: ['line', 'group'] }).notNull().default('line'),
    discount: text('discount'),
    taxExemptionReason: text('tax_exemption_reason'),
    taxExemptionCode: text('tax_exemption_code'),
    buyerReference: text('buyer_reference'),
    purchaseOrder: text('purchase_order'),
  },
  (t) => [
    index('recurring_invoices_workspace_idx').on(t.workspaceId, t.id),
    index('recurring_invoices_due_idx').on(t.status, t.nextIssueAt),
  ],
);

// Time entries (§19): a manual entry (duration_seconds set), or a running timer (duration_seconds
// null until it is stopped). A user has at most one running timer per workspace: the partial unique
// index is the last word on it, whatever races the API loses. `rate` (minor units per hour) and
// `currency` are taken from the project when the entry is made, so later rate changes bill only new
// work. `invoice_id` is set while an invoice bills the entry (locked); deleting that invoice releases it.
export const timeEntries = sqliteTable(
  'time_entries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    // RESTRICT: a project with time entries cannot be deleted (the API answers 409 first).
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'restrict' }),
    task: text('task'),
    notes: text('notes'),
    spentDate: text('spent_date').notNull(),
    startedAt: text('started_at'),
    stoppedAt: text('stopped_at'),
    durationSeconds: integer('duration_seconds'),
    billable: integer('billable', { mode: 'boolean' }).notNull().default(true),
    rate: integer('rate'),
    currency: text('currency').notNull(),
    invoiceId: text('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('time_entries_workspace_idx').on(t.workspaceId, t.id),
    index('time_entries_workspace_user_idx').on(t.workspaceId, t.userId, t.id),
    index('time_entries_workspace_project_idx').on(t.workspaceId, t.projectId, t.id),
    index('time_entries_workspace_spent_idx').on(t.workspaceId, t.spentDate),
    index('time_entries_invoice_idx').on(t.invoiceId),
    uniqueIndex('time_entries_one_running_uq').on(t.workspaceId, t.userId).where(sql`${t.durationSeconds} IS NULL`),
    check('time_entries_duration_bounds', sql`${t.durationSeconds} IS NULL OR (${t.durationSeconds} BETWEEN 1 AND 86400)`),
    check('time_entries_rate_nonneg', sql`${t.rate} IS NULL OR ${t.rate} >= 0`),
  ],
);

// Quotes (§18): a document on the §15 line model that the client accepts or declines, then
// converted into one invoice. Its lines are stored with it as JSON (rows of invoice_line_items'
// shape): they are only ever read and written with their quote. Sending snapshots the parties and
// gives it a hosted link, as an invoice's (§10). `accepted` and `declined` are the client's answer
// (JSON), given once.
export const quotes = sqliteTable(
  'quotes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    number: text('number').notNull(),
    status: text('status', { enum: ['draft', 'open', 'accepted', 'declined', 'expired', 'canceled', 'converted'] }).notNull(),
    clientId: text('client_id').notNull().references(() => clients.id, { onDelete: 'restrict' }),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    issueDate: text('issue_date').notNull(),
    validUntil: text('valid_until').notNull(),
    /** JSON: the line rows, as invoice_line_items stores them (without invoice_id). */
    lineItems: text('line_items').notNull(),
    // What tax is charged on (Σ line amount − discount_total), as on invoices.
    taxableAmount: integer('taxable_amount').notNull(),
    discount: text('discount'),
    discountTotal: integer('discount_total').notNull().default(0),
    tax: integer('tax').notNull(),
    total: integer('total').notNull(),
    taxRounding: text('tax_rounding', { enum: ['line', 'group'] }).notNull(),
    taxBreakdown: text('tax_breakdown'),
    taxExemptionReason: text('tax_exemption_reason'),
    taxExemptionCode: text('tax_exemption_code'),
    notes: text('notes'),
    terms: text('terms'),
    onAccept: text('on_accept', { enum: ['none', 'draft_invoice', 'send_invoice'] }).notNull().default('none'),
    // Set when it is sent, as on invoices.
    issuer: text('issuer'),
    billTo: text('bill_to'),
    locale: text('locale'),
    linkVersion: integer('link_version'),
    linkHash: text('link_hash'),
    linkOrigin: text('link_origin'),
    viewedAt: text('viewed_at'),
    /** JSON {name, po_number, method, at, ip, user_agent}. */
    accepted: text('accepted'),
    /** JSON {reason, at, ip, user_agent}. */
    declined: text('declined'),
    invoiceId: text('invoice_id'),
    revisionOf: text('revision_of'),
    sentAt: text('sent_at'),
    ...timestamps,
    // The email that carries the link (kind `quote`), its state on the quote as an invitation's is:
    // queued in the batch that sends the quote, claimed under a lease by the emails consumer,
    // retried on the invoice emails' schedule, and re-queued by the cron sweep when its message was lost.
    /** JSON arrays of addresses. */
    emailTo: text('email_to'),
    emailCc: text('email_cc'),
    emailMessage: text('email_message'),
    emailStatus: text('email_status', { enum: ['queued', 'sent', 'failed'] }),
    emailAttempts: integer('email_attempts').notNull().default(0),
    emailError: text('email_error'),
    emailNextAttemptAt: text('email_next_attempt_at'),
    emailLeaseUntil: text('email_lease_until'),
    emailSentAt: text('email_sent_at'),
  },
  (t) => [
    index('quotes_email_due_idx').on(t.emailStatus, t.emailNextAttemptAt),
    uniqueIndex('quotes_workspace_number_uq').on(t.workspaceId, t.number),
    uniqueIndex('quotes_link_hash_uq').on(t.linkHash),
    index('quotes_workspace_idx').on(t.workspaceId, t.id),
    index('quotes_workspace_status_idx').on(t.workspaceId, t.status, t.id),
    // The cron's expiry: open quotes by validity.
    index('quotes_expiry_idx').on(t.status, t.validUntil),
    check('quotes_dates_ordered', sql`${t.validUntil} >= ${t.issueDate}`),
    check('quotes_amounts_valid', sql`${t.taxableAmount} >= 0 AND ${t.tax} >= 0 AND ${t.total} = ${t.taxableAmount} + ${t.tax}`),
  ],
);
