// The cron's watch on due dates (§12): an open invoice whose due date has passed in its workspace's
// time zone writes invoice.overdue once (overdue_notified_at guards it), in bounded chunks found
// by an index on (status, overdue_notified_at, due_date).
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import { invoiceLineItems, invoices, workspaces } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { todayIn } from '../recurring-invoices/schedule';
import { invoiceObject } from './service';

export const OVERDUE_JOB = 'overdue';
const CHUNK = 200;

/** Writes invoice.overdue for every invoice that became overdue. Returns how many. */
export async function markOverdueInvoices(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  // Due before today somewhere on Earth (UTC+14 is the first to reach a day).
  const latestToday = todayIn('Pacific/Kiritimati', now);
  const candidates = await db
    .select({ invoice: invoices, timeZone: workspaces.timeZone })
    .from(invoices)
    .innerJoin(workspaces, eq(workspaces.id, invoices.workspaceId))
    .where(and(eq(invoices.status, 'open'), isNull(invoices.overdueNotifiedAt), lt(invoices.dueDate, latestToday)))
    .orderBy(asc(invoices.dueDate))
    .limit(CHUNK);
  let marked = 0;
  for (const { invoice, timeZone } of candidates) {
    if (invoice.dueDate >= todayIn(timeZone, now)) continue; // not yet past due where the workspace is
    const ctx = systemContext(env, invoice.workspaceId, OVERDUE_JOB, timeZone);
    const lines = await db.select().from(invoiceLineItems).where(eq(invoiceLineItems.invoiceId, invoice.id)).orderBy(invoiceLineItems.position);
    const at = nowIso();
    const [updated] = await ctx.db.batch([
      ctx.db.update(invoices).set({ overdueNotifiedAt: at }).where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'open'), isNull(invoices.overdueNotifiedAt))),
      recordEvent(ctx, 'invoice.overdue', invoiceObject(ctx, { row: { ...invoice, overdueNotifiedAt: at }, lines }), { ifChanged: true }),
    ]);
    if ((updated as { meta: { changes: number } }).meta.changes > 0) marked++;
  }
  return marked;
}
