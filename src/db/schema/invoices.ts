import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { clients } from './clients';
import { timestamps } from './columns';
import { projects } from './projects';
import { users, workspaceColumn } from './workspaces';

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
    // §20: the date of supply (BT-72) or the period of supply (BG-14), at most one; neither means the
    // issue date stands for it.
    serviceDate: text('service_date'),
    servicePeriodStart: text('service_period_start'),
    servicePeriodEnd: text('service_period_end'),
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
    // §22's reports: the profit and loss reads each day's net per currency (and project) from the index
    // alone, in its order; aged receivables reads open invoices and those paid or voided since a time.
    index('invoices_workspace_issue_net_idx').on(t.workspaceId, t.issueDate, t.currency, t.projectId, t.status, t.taxableAmount),
    index('invoices_workspace_status_settled_idx').on(t.workspaceId, t.status, t.paidAt, t.voidedAt),
    index('invoices_workspace_client_idx').on(t.workspaceId, t.clientId, t.id),
    index('invoices_workspace_project_idx').on(t.workspaceId, t.projectId, t.id),
    check('invoices_amounts_valid', sql`${t.taxableAmount} >= 0 AND ${t.tax} >= 0 AND ${t.total} = ${t.taxableAmount} + ${t.tax}`),
    check('invoices_paid_within_total', sql`${t.amountPaid} >= 0 AND ${t.amountPaid} <= ${t.total}`),
    check('invoices_dates_ordered', sql`${t.dueDate} >= ${t.issueDate}`),
  ],
);

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
