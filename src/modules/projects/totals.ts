// A project's money in USD: invoiced (open and paid invoices), paid, expenses, profit = paid − expenses.
// Sums are taken per currency in SQL, then each converted at the cached rates (half away from zero).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { expenses, invoices } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { getRatesSnapshot } from '../rates/refresh';
import { convertAtSnapshot } from '../rates/snapshot';

export async function projectTotals(ctx: WorkspaceContext, projectId: string) {
  const { db } = ctx;
  const [invoiceSums, expenseSums] = await db.batch([
    db
      .select({
        currency: invoices.currency,
        invoiced: sql<number>`coalesce(sum(${invoices.total}), 0)`,
        paid: sql<number>`coalesce(sum(${invoices.amountPaid}), 0)`,
      })
      .from(invoices)
      .where(and(inWorkspace(ctx, invoices), eq(invoices.projectId, projectId), inArray(invoices.status, ['open', 'paid'])))
      .groupBy(invoices.currency),
    db
      .select({ currency: expenses.currency, amount: sql<number>`coalesce(sum(${expenses.amount}), 0)` })
      .from(expenses)
      .where(and(inWorkspace(ctx, expenses), eq(expenses.projectId, projectId)))
      .groupBy(expenses.currency),
  ]);
  const needsRates = [...invoiceSums, ...expenseSums].some((row) => row.currency !== 'USD');
  const snapshot = needsRates ? await getRatesSnapshot(ctx.env) : null;
  const toUsd = (amount: number, currency: string) => convertAtSnapshot(snapshot, amount, currency, 'USD');

  let invoiced = 0;
  let paid = 0;
  let spent = 0;
  for (const row of invoiceSums) {
    invoiced += toUsd(row.invoiced, row.currency);
    paid += toUsd(row.paid, row.currency);
  }
  for (const row of expenseSums) spent += toUsd(row.amount, row.currency);
  return { currency: 'USD' as const, invoiced, paid, expenses: spent, profit: paid - spent };
}
