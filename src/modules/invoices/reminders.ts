// Overdue reminders (§12): with the workspace's reminders enabled, the first cron run on or after
// each due_date + d (d in days_after_due, judged in the workspace's time zone) queues one reminder
// email through the outbox. The unique index on (invoice_id, reminder_day) makes each at most once.
import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import { emailDeliveries, invoices, workspaces } from '../../db/schema';
import { config } from '../../config';
import { systemContext } from '../../lib/context';
import { CRON_CHUNK, inChunks } from '../../lib/chunked';
import { budgetOf } from '../../lib/query-budget';
import { createDb } from '../../lib/db';
import { addDays } from '../../lib/time';
import { enqueueEmailsQuietly, outboxRow } from '../emails/outbox';
import { todayIn } from '../recurring-invoices/schedule';
import { afterRow } from './overdue';
import type { BillToSnapshot, InvoiceRow } from './serialize';

export const REMINDERS_JOB = 'reminders';
const MAX_PER_RUN = 2000;

/** Queues every reminder that has come due. Returns how many. */
export async function queueReminders(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const latestToday = todayIn('Pacific/Kiritimati', now);
  const publicUrl = config(env).PUBLIC_URL;
  // A day of days_after_due that has come somewhere on Earth, with no reminder queued for it yet.
  const reminderPending = sql`EXISTS (SELECT 1 FROM json_each(${workspaces.reminderDays}) day
    WHERE date(${invoices.dueDate}, '+' || day.value || ' days') <= ${latestToday}
      AND NOT EXISTS (SELECT 1 FROM ${emailDeliveries} d WHERE d.invoice_id = ${invoices.id} AND d.reminder_day = day.value))`;
  type Candidate = { invoice: InvoiceRow; timeZone: string; days: string };
  const find = (after: Candidate | undefined) =>
    db
      .select({ invoice: invoices, timeZone: workspaces.timeZone, days: workspaces.reminderDays })
      .from(invoices)
      .innerJoin(workspaces, eq(workspaces.id, invoices.workspaceId))
      .where(and(
        eq(workspaces.remindersEnabled, true), eq(invoices.status, 'open'), lt(invoices.dueDate, latestToday),
        // Someone to remind, and a link to give them.
        sql`json_extract(${invoices.billTo}, '$.email') IS NOT NULL`, publicUrl ? undefined : isNotNull(invoices.linkOrigin),
        reminderPending, after ? afterRow(after.invoice) : undefined,
      ))
      .orderBy(asc(invoices.dueDate), asc(invoices.id))
      .limit(CRON_CHUNK);
  const queued: string[] = [];
  await inChunks(find, async ({ invoice, timeZone, days }) => {
    const today = todayIn(timeZone, now);
    const to = (JSON.parse(invoice.billTo!) as BillToSnapshot).email!;
    const ctx = systemContext(env, invoice.workspaceId, REMINDERS_JOB, timeZone);
    for (const day of JSON.parse(days) as number[]) {
      if (addDays(invoice.dueDate, day) > today) continue; // not yet, where the workspace is
      const row = outboxRow(ctx, { invoiceId: invoice.id, kind: 'reminder', to: [to], cc: [], message: null, linkOrigin: publicUrl ?? invoice.linkOrigin!, reminderDay: day });
      const inserted = await ctx.db.insert(emailDeliveries).values(row).onConflictDoNothing().returning({ id: emailDeliveries.id });
      queued.push(...inserted.map((r) => r.id));
    }
  }, MAX_PER_RUN, budgetOf(env));
  await enqueueEmailsQuietly(env, queued);
  return queued.length;
}
