import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { clients } from './clients';
import { timestamps } from './columns';
import { projects } from './projects';
import { users, workspaceColumn } from './workspaces';

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
