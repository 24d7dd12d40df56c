// The dashboard's figures as SQL aggregates grouped by currency, all in one batch (one round trip).
// Period sums read whole months from the trigger-kept monthly roll-ups and only the days at either
// end from covering indexes; open invoices are read by status. So the cost does not follow the size
// of the account or the length of the period.
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import { clients, invoiceStatusCounts, invoices, projects } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { recentEvents } from '../events/service';
import { type Period, type PeriodParts, splitPeriod } from './period';

export type { Period };

/** Σ per currency over a period: whole months from `rollup`, the edge days from `rows` on `dateColumn`. */
function periodSum(db: Db, workspaceId: string, parts: PeriodParts, rollup: SQL, rows: SQL, dateColumn: SQL, rowFilter: SQL = sql`1`) {
  // Head and tail are separate branches: an OR of two ranges would make SQLite read every row of
  // the workspace from the index instead of seeking each range.
  const edge = (range: [string, string]) =>
    sql`SELECT currency, amount FROM ${rows} WHERE workspace_id = ${workspaceId} AND ${rowFilter} AND ${dateColumn} BETWEEN ${range[0]} AND ${range[1]}`;
  const periodRows = sql`(
      SELECT currency, amount FROM ${rollup} WHERE workspace_id = ${workspaceId} AND month BETWEEN ${parts.months[0]} AND ${parts.months[1]}
      UNION ALL ${edge(parts.head)}
      UNION ALL ${edge(parts.tail)}
    )`;
  return db
    // As text: an exact integer however large (money.ts, sums).
    .select({ currency: sql<string>`currency`, amount: sql<string>`CAST(sum(amount) AS TEXT)` })
    .from(periodRows)
    .groupBy(sql`currency`)
    .having(sql`sum(amount) != 0`);
}

/** What open invoices still owe, and how much of it is overdue, per currency: read from an index alone
 *  (invoices_workspace_open_owed_idx), however many invoices are open. */
export function openInvoiceSums(ctx: WorkspaceContext, today: string) {
  const owed = sql`${invoices.total} - ${invoices.creditedAmount} - ${invoices.amountPaid}`;
  return ctx.db
    .select({
      currency: invoices.currency,
      outstanding: sql<string>`CAST(sum(${owed}) AS TEXT)`,
      overdue: sql<string>`CAST(coalesce(sum(CASE WHEN ${invoices.dueDate} < ${today} THEN ${owed} END), 0) AS TEXT)`,
      overdueCount: sql<number>`count(CASE WHEN ${invoices.dueDate} < ${today} THEN 1 END)`,
    })
    .from(invoices)
    .where(and(inWorkspace(ctx, invoices), eq(invoices.status, 'open')))
    .groupBy(invoices.currency);
}

/** The input tax of expenses accepted from received documents (§21), per currency: the edge days read from an
 *  index that holds only those expenses (expenses_workspace_incurred_tax_idx). */
export function inputTaxSums(ctx: WorkspaceContext, parts: PeriodParts) {
  return periodSum(
    ctx.db, ctx.workspaceId, parts,
    sql`(SELECT workspace_id, month, currency, input_tax AS amount FROM workspace_expense_monthly_totals)`,
    sql`(SELECT workspace_id, incurred_on, currency, tax_amount AS amount FROM expenses)`,
    sql`incurred_on`,
    sql`amount IS NOT NULL`,
  );
}

export function dashboardQueries(ctx: WorkspaceContext, period: Period, today: string) {
  const { db, workspaceId } = ctx;
  const parts = splitPeriod(period);
  return db.batch([
    periodSum(
      db, workspaceId, parts,
      sql`(SELECT workspace_id, month, currency, invoiced AS amount FROM workspace_invoice_monthly_totals)`,
      // Credit notes count against what was invoiced on their own issue date (§17); the roll-up has them too.
      sql`(SELECT workspace_id, issue_date, currency, total AS amount, status FROM invoices
        UNION ALL SELECT workspace_id, issue_date, currency, -total, 'open' FROM credit_notes)`,
      sql`issue_date`,
      sql`status IN ('open', 'paid')`,
    ),
    periodSum(
      db, workspaceId, parts,
      sql`(SELECT workspace_id, month, currency, collected AS amount FROM workspace_payment_monthly_totals)`,
      // Refunds count against what was collected on their own date (§16); the roll-up has them too.
      sql`(SELECT workspace_id, paid_on, currency, amount FROM payments UNION ALL SELECT workspace_id, refunded_on, currency, -amount FROM refunds WHERE status != 'failed')`,
      sql`paid_on`,
    ),
    // The tax share of each payment (payments.tax, kept per month beside `collected`), less the share
    // each refund gives back (refunds.tax).
    periodSum(
      db, workspaceId, parts,
      sql`(SELECT workspace_id, month, currency, tax_collected AS amount FROM workspace_payment_monthly_totals)`,
      sql`(SELECT workspace_id, paid_on, currency, coalesce(tax, 0) AS amount FROM payments
        UNION ALL SELECT workspace_id, refunded_on, currency, -coalesce(tax, 0) FROM refunds WHERE status != 'failed')`,
      sql`paid_on`,
    ),
    openInvoiceSums(ctx, today),
    periodSum(
      db, workspaceId, parts,
      sql`(SELECT workspace_id, month, currency, spent AS amount FROM workspace_expense_monthly_totals)`,
      sql`expenses`,
      sql`incurred_on`,
    ),
    inputTaxSums(ctx, parts),
    db.select({ status: invoiceStatusCounts.status, n: invoiceStatusCounts.count }).from(invoiceStatusCounts).where(inWorkspace(ctx, invoiceStatusCounts)),
    db.select({ n: count() }).from(clients).where(inWorkspace(ctx, clients)),
    db.select({ n: count() }).from(projects).where(and(inWorkspace(ctx, projects), eq(projects.status, 'active'))),
    recentEvents(ctx, 20),
  ]);
}
