import { sql } from 'drizzle-orm';
import { type AnySQLiteColumn, check, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { invoices } from './invoices';
import { projects } from './projects';
import { users, workspaceColumn } from './workspaces';

/** What an expense is for; each maps to an expense account in the DATEV export (§22). */
export const EXPENSE_CATEGORIES = ['software', 'hardware', 'travel', 'meals', 'office', 'contractors', 'fees', 'taxes', 'marketing', 'other'] as const;

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
    // §21: what an accepted inbound document carries over (all null on an expense typed in by hand). `supplier` and
    // `tax_breakdown` are JSON text; `amount` stays the gross total, `net_amount` + `tax_amount` its split.
    supplier: text('supplier'),
    reference: text('reference'),
    netAmount: integer('net_amount'),
    taxAmount: integer('tax_amount'),
    taxBreakdown: text('tax_breakdown'),
    dueDate: text('due_date'),
    documentId: text('document_id'),
    ...timestamps,
  },
  (t) => [
    index('expenses_invoice_idx').on(t.invoiceId),
    index('expenses_workspace_idx').on(t.workspaceId, t.id),
    index('expenses_workspace_incurred_idx').on(t.workspaceId, t.incurredOn, t.currency, t.amount),
    index('expenses_workspace_project_idx').on(t.workspaceId, t.projectId, t.id),
    // §22's profit and loss: each day's expenses per currency (and project), net of input tax, from the index alone.
    index('expenses_workspace_incurred_net_idx').on(t.workspaceId, t.incurredOn, t.currency, t.projectId, t.amount, t.netAmount),
    index('expenses_document_idx').on(t.documentId),
    // The dashboard's input tax over the days at a period's ends (§21), read from this index alone; only expenses
    // accepted from a document have a tax amount, so it holds only theirs.
    index('expenses_workspace_incurred_tax_idx').on(t.workspaceId, t.incurredOn, t.currency, t.taxAmount).where(sql`${t.taxAmount} IS NOT NULL`),
    check('expenses_amount_positive', sql`${t.amount} > 0`),
  ],
);
