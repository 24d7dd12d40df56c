// The cron's watch on due dates (§12): an open invoice whose due date has passed in its workspace's
// time zone writes invoice.overdue once (overdue_notified_at guards it), in chunks found by an
// index on (status, overdue_notified_at, due_date).
import { and, asc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { invoiceLineItems, invoices, workspaces } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { CRON_CHUNK, inChunks } from '../../lib/chunked';
import { budgetOf } from '../../lib/query-budget';
import { createDb } from '../../lib/db';
import { changedRows } from '../../lib/guarded-write';
import { nowIso, todayIn } from '../../lib/time';
import { recordEvent } from '../events/record';
import type { InvoiceRow } from './serialize';
import { invoiceObject } from './service';

export const OVERDUE_JOB = 'overdue';
const MAX_PER_RUN = 2000;

/** Writes invoice.overdue for every invoice that became overdue. Returns how many. */
export async function markOverdueInvoices(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  // Due before today somewhere on Earth (UTC+14 is the first to reach a day).
  const latestToday = todayIn('Pacific/Kiritimati', new Date(now));
  let marked = 0;
  type Candidate = { invoice: InvoiceRow; timeZone: string };
  const find = (after: Candidate | undefined) =>
    db
      .select({ invoice: invoices, timeZone: workspaces.timeZone })
      .from(invoices)
      .innerJoin(workspaces, eq(workspaces.id, invoices.workspaceId))
      .where(and(eq(invoices.status, 'open'), isNull(invoices.overdueNotifiedAt), lt(invoices.dueDate, latestToday), after ? afterRow(after.invoice) : undefined))
      .orderBy(asc(invoices.dueDate), asc(invoices.id))
      .limit(CRON_CHUNK);
  await inChunks(find, async ({ invoice, timeZone }) => {
    if (invoice.dueDate >= todayIn(timeZone, new Date(now))) return; // not yet past due where the workspace is
    const ctx = systemContext(env, invoice.workspaceId, OVERDUE_JOB, timeZone);
    const lines = await db.select().from(invoiceLineItems).where(eq(invoiceLineItems.invoiceId, invoice.id)).orderBy(invoiceLineItems.position);
    const at = nowIso();
    const [updated] = await ctx.db.batch([
      ctx.db.update(invoices).set({ overdueNotifiedAt: at }).where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'open'), isNull(invoices.overdueNotifiedAt))),
      recordEvent(ctx, 'invoice.overdue', invoiceObject(ctx, { row: { ...invoice, overdueNotifiedAt: at }, lines }), { ifChanged: true }),
    ]);
    if (changedRows(updated) > 0) marked++;
  }, MAX_PER_RUN, budgetOf(env));
  return marked;
}

/** Invoices after this one in (due_date, id) order. */
export const afterRow = (row: { dueDate: string; id: string }) =>
  or(gt(invoices.dueDate, row.dueDate), and(eq(invoices.dueDate, row.dueDate), gt(invoices.id, row.id)));
