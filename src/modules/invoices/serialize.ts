// An invoice as clients see it: stored columns plus what is derived from them and never stored
// (amount_due, overdue, available_actions).
import type { z } from '@hono/zod-openapi';
import type { invoices } from '../../db/schema';
import type { InvoiceAction } from './schemas';
import { type LineRow, serializeLine } from './lines';

export type InvoiceRow = typeof invoices.$inferSelect;
type InvoiceActionValue = z.infer<typeof InvoiceAction>;

/** Open and due before `today`, which is the workspace's today (its time zone). */
export const isOverdue = (row: InvoiceRow, today: string) => row.status === 'open' && row.dueDate < today;

/** What the invoice's state allows now; the action handlers enforce the very same rules in SQL. */
export function availableActions(row: InvoiceRow): InvoiceActionValue[] {
  switch (row.status) {
    case 'draft':
      return ['update', 'delete', 'send'];
    case 'open':
      return row.amountPaid === 0 ? ['record_payment', 'void'] : ['record_payment'];
    default:
      return [];
  }
}

export function serializeInvoiceSummary(row: InvoiceRow, today: string) {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    overdue: isOverdue(row, today),
    client_id: row.clientId,
    project_id: row.projectId,
    currency: row.currency,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    subtotal: row.subtotal,
    tax: row.tax,
    total: row.total,
    amount_paid: row.amountPaid,
    amount_due: row.total - row.amountPaid,
    notes: row.notes,
    available_actions: availableActions(row),
    sent_at: row.sentAt,
    paid_at: row.paidAt,
    voided_at: row.voidedAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function serializeInvoice(row: InvoiceRow, lines: LineRow[], today: string) {
  return { ...serializeInvoiceSummary(row, today), line_items: lines.map(serializeLine) };
}

/** An invoice with its lines, as read or as a change leaves it. */
export type InvoiceWithLines = { row: InvoiceRow; lines: LineRow[] };
