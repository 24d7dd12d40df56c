import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { clients } from './clients';
import { timestamps } from './columns';
import { projects } from './projects';
import { users, workspaceColumn } from './workspaces';

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
    // §20: the date (BT-72) or period (BG-14) of supply the quote offers, at most one; its invoice takes it.
    serviceDate: text('service_date'),
    servicePeriodStart: text('service_period_start'),
    servicePeriodEnd: text('service_period_end'),
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
