// A project's money in USD: invoiced (open and paid invoices), paid, expenses, the input tax in them (§21: the
// `tax_amount` of expenses accepted from received documents, reclaimable), profit = paid − (expenses − input tax),
// and unbilled_amount: its billable time no invoice bills yet (each entry rounded, §19).
// Sums are taken per currency in SQL, then each converted at the cached rates (half away from zero).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { expenses, invoices, projects, timeEntries } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { exactFigure, sumFromSql } from '../../lib/money';
import { getRatesSnapshot } from '../rates/refresh';
import { convertSumAtSnapshot } from '../rates/snapshot';
import { uninvoicedAmountSql } from '../time-entries/service';

export async function projectTotals(ctx: WorkspaceContext, projectId: string) {
  const { db } = ctx;
  // Sums as text and BigInt, answered only when exact (lib/money.ts, sums).
  const [invoiceSums, expenseSums, timeSums] = await db.batch([
    db
      .select({
        currency: invoices.currency,
        invoiced: sql<string>`CAST(coalesce(sum(${invoices.total}), 0) AS TEXT)`,
        paid: sql<string>`CAST(coalesce(sum(${invoices.amountPaid}), 0) AS TEXT)`,
      })
      .from(invoices)
      .where(and(inWorkspace(ctx, invoices), eq(invoices.projectId, projectId), inArray(invoices.status, ['open', 'paid'])))
      .groupBy(invoices.currency),
    db
      .select({
        currency: expenses.currency,
        amount: sql<string>`CAST(coalesce(sum(${expenses.amount}), 0) AS TEXT)`,
        inputTax: sql<string>`CAST(coalesce(sum(${expenses.taxAmount}), 0) AS TEXT)`,
      })
      .from(expenses)
      .where(and(inWorkspace(ctx, expenses), eq(expenses.projectId, projectId)))
      .groupBy(expenses.currency),
    db
      .select({ currency: timeEntries.currency, amount: uninvoicedAmountSql })
      .from(timeEntries)
      .innerJoin(projects, eq(projects.id, timeEntries.projectId))
      .where(and(inWorkspace(ctx, timeEntries), eq(timeEntries.projectId, projectId)))
      .groupBy(timeEntries.currency),
  ]);
  const needsRates = [...invoiceSums, ...expenseSums, ...timeSums].some((row) => row.currency !== 'USD');
  const snapshot = needsRates ? await getRatesSnapshot(ctx.env) : null;
  const toUsd = (amount: string, currency: string) => convertSumAtSnapshot(snapshot, sumFromSql(amount), currency, 'USD');

  let invoiced = 0n;
  let paid = 0n;
  let spent = 0n;
  let inputTax = 0n;
  for (const row of invoiceSums) {
    invoiced += toUsd(row.invoiced, row.currency);
    paid += toUsd(row.paid, row.currency);
  }
  for (const row of expenseSums) {
    spent += toUsd(row.amount, row.currency);
    inputTax += toUsd(row.inputTax, row.currency);
  }
  let unbilled = 0n;
  for (const row of timeSums) unbilled += toUsd(row.amount, row.currency);
  const exact = (value: bigint, field: string) => exactFigure(value, 'id', `The project's totals.${field} in USD`);
  return {
    currency: 'USD' as const,
    invoiced: exact(invoiced, 'invoiced'),
    paid: exact(paid, 'paid'),
    expenses: exact(spent, 'expenses'),
    input_tax: exact(inputTax, 'input_tax'),
    profit: exact(paid - (spent - inputTax), 'profit'),
    unbilled_amount: exact(unbilled, 'unbilled_amount'),
  };
}
