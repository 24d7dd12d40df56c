// The dashboard's figures as SQL aggregates grouped by currency, all in one batch (one round trip).
// Each reads a covering index that leads with user_id and bounds the range (period or status), so the
// cost follows the rows in the period, not the size of the account.
import { and, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { activities, clients, expenses, invoiceStatusCounts, invoices, payments, projects } from '../../db/schema';
import type { Db } from '../../lib/db';

export type Period = { from: string; to: string };

export function dashboardQueries(db: Db, userId: string, period: Period, today: string) {
  return db.batch([
    db
      .select({ currency: invoices.currency, amount: sql<number>`sum(${invoices.total})` })
      .from(invoices)
      .where(and(eq(invoices.userId, userId), gte(invoices.issueDate, period.from), lte(invoices.issueDate, period.to), inArray(invoices.status, ['open', 'paid'])))
      .groupBy(invoices.currency),
    db
      .select({ currency: payments.currency, amount: sql<number>`sum(${payments.amount})` })
      .from(payments)
      .where(and(eq(payments.userId, userId), gte(payments.paidOn, period.from), lte(payments.paidOn, period.to)))
      .groupBy(payments.currency),
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
    db
      .select({ currency: expenses.currency, amount: sql<number>`sum(${expenses.amount})` })
      .from(expenses)
      .where(and(eq(expenses.userId, userId), gte(expenses.incurredOn, period.from), lte(expenses.incurredOn, period.to)))
      .groupBy(expenses.currency),
    db.select({ status: invoiceStatusCounts.status, n: invoiceStatusCounts.count }).from(invoiceStatusCounts).where(eq(invoiceStatusCounts.userId, userId)),
    db.select({ n: count() }).from(clients).where(eq(clients.userId, userId)),
    db.select({ n: count() }).from(projects).where(and(eq(projects.userId, userId), eq(projects.status, 'active'))),
    db.select().from(activities).where(eq(activities.userId, userId)).orderBy(desc(activities.id)).limit(20),
  ]);
}
