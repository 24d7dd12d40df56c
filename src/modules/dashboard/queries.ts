// The dashboard's figures as SQL aggregates grouped by currency, all in one batch (one round trip).
// Period sums read whole months from the trigger-kept monthly roll-ups and only the days at either
// end from covering indexes; open invoices are read by status. So the cost does not follow the size
// of the account or the length of the period.
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { activities, clients, invoiceStatusCounts, invoices, projects } from '../../db/schema';
import type { Db } from '../../lib/db';
import { type Period, type PeriodParts, splitPeriod } from './period';

export type { Period };

/** Σ per currency over a period: whole months from `rollup`, the edge days from `rows` on `dateColumn`. */
function periodSum(db: Db, userId: string, parts: PeriodParts, rollup: SQL, rows: SQL, dateColumn: SQL, rowFilter: SQL = sql`1`) {
  // Head and tail are separate branches: an OR of two ranges would make SQLite read every row of
  // the user from the index instead of seeking each range.
  const edge = (range: [string, string]) =>
    sql`SELECT currency, amount FROM ${rows} WHERE user_id = ${userId} AND ${rowFilter} AND ${dateColumn} BETWEEN ${range[0]} AND ${range[1]}`;
  const periodRows = sql`(
      SELECT currency, amount FROM ${rollup} WHERE user_id = ${userId} AND month BETWEEN ${parts.months[0]} AND ${parts.months[1]}
      UNION ALL ${edge(parts.head)}
      UNION ALL ${edge(parts.tail)}
    )`;
  return db
    .select({ currency: sql<string>`currency`, amount: sql<number>`sum(amount)` })
    .from(periodRows)
    .groupBy(sql`currency`)
    .having(sql`sum(amount) != 0`);
}

export function dashboardQueries(db: Db, userId: string, period: Period, today: string) {
  const parts = splitPeriod(period);
  return db.batch([
    periodSum(
      db, userId, parts,
      sql`(SELECT user_id, month, currency, invoiced AS amount FROM invoice_monthly_totals)`,
      sql`(SELECT user_id, issue_date, currency, total AS amount, status FROM invoices)`,
      sql`issue_date`,
      sql`status IN ('open', 'paid')`,
    ),
    periodSum(
      db, userId, parts,
      sql`(SELECT user_id, month, currency, collected AS amount FROM payment_monthly_totals)`,
      sql`payments`,
      sql`paid_on`,
    ),
    db
      .select({
        currency: invoices.currency,
        outstanding: sql<number>`sum(${invoices.total} - ${invoices.amountPaid})`,
        overdue: sql<number>`coalesce(sum(CASE WHEN ${invoices.dueDate} < ${today} THEN ${invoices.total} - ${invoices.amountPaid} END), 0)`,
        overdueCount: sql<number>`count(CASE WHEN ${invoices.dueDate} < ${today} THEN 1 END)`,
      })
      .from(invoices)
      .where(and(eq(invoices.userId, userId), eq(invoices.status, 'open')))
      .groupBy(invoices.currency),
    periodSum(
      db, userId, parts,
      sql`(SELECT user_id, month, currency, spent AS amount FROM expense_monthly_totals)`,
      sql`expenses`,
      sql`incurred_on`,
    ),
    db.select({ status: invoiceStatusCounts.status, n: invoiceStatusCounts.count }).from(invoiceStatusCounts).where(eq(invoiceStatusCounts.userId, userId)),
    db.select({ n: count() }).from(clients).where(eq(clients.userId, userId)),
    db.select({ n: count() }).from(projects).where(and(eq(projects.userId, userId), eq(projects.status, 'active'))),
    db.select().from(activities).where(eq(activities.userId, userId)).orderBy(desc(activities.id)).limit(20),
  ]);
}
