import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { invoices } from './invoices';
import { workspaceColumn } from './workspaces';

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
