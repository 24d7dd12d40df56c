import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { workspaces } from './workspaces';

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
export const expenseMonthlyTotals = monthly('workspace_expense_monthly_totals', 'spent', {
  // Σ expenses.tax_amount, the input tax of expenses accepted from received documents (§21; migration dashboard_input_tax).
  inputTax: integer('input_tax').notNull().default(0),
});
