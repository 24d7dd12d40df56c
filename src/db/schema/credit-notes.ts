import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { invoices } from './invoices';
import { users, workspaceColumn } from './workspaces';

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
    // §20: the language it is read in, set when it is issued (its invoice's unless given its own).
    locale: text('locale'),
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
