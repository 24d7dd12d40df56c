import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { workspaces } from './workspaces';

// §22: what the profit and loss report reads for months and quarters, kept by triggers on the records
// (migration 0033) in the same transaction as every change, so a year's report reads a row per
// currency and day rather than every invoice and payment of the year. Amounts are minor units of
// `currency`; each column is the sum of the records the report counts (reports/records.ts) dated that
// day. Both tables are WITHOUT ROWID (see the migration): a report reads a range of their key.
export const booksDaily = sqliteTable(
  'books_daily',
  {
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    currency: text('currency').notNull(),
    /** Σ net (subtotal) of open and paid invoices issued that day. */
    invoiced: integer('invoiced').notNull().default(0),
    /** Σ net (total − tax) of credit notes issued that day. */
    credited: integer('credited').notNull().default(0),
    /** Σ payments paid on that day. */
    received: integer('received').notNull().default(0),
    /** Σ their net share (amount − tax). */
    receivedNet: integer('received_net').notNull().default(0),
    /** Σ the net share of refunds made that day that did not fail. */
    refundedNet: integer('refunded_net').notNull().default(0),
    /** Σ expenses incurred that day, net of input tax. */
    spent: integer('spent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day, t.currency] })],
);

/** Payments by the month they were paid in and their invoice's issue day: what their exchange difference is measured from. */
export const booksFxIssue = sqliteTable(
  'books_fx_issue',
  {
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    paidMonth: text('paid_month').notNull(),
    currency: text('currency').notNull(),
    issueDay: text('issue_day').notNull(),
    amount: integer('amount').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.paidMonth, t.currency, t.issueDay] })],
);
