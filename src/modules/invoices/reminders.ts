// Overdue reminders (§12): with the workspace's reminders enabled, the first cron run on or after
// each due_date + d (d in days_after_due, judged in the workspace's time zone) queues one reminder
// email through the outbox. The unique index on (invoice_id, reminder_day) makes each at most once.
import { and, eq, lt, sql } from 'drizzle-orm';
import { emailDeliveries, invoices, workspaces } from '../../db/schema';
import { config } from '../../config';
import { systemContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { addDays } from '../../lib/time';
import { enqueueEmailsQuietly, outboxRow } from '../emails/outbox';
import { todayIn } from '../recurring-invoices/schedule';
import type { BillToSnapshot } from './serialize';

export const REMINDERS_JOB = 'reminders';
const CHUNK = 200;

/** Queues every reminder that has come due. Returns how many. */
export async function queueReminders(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const latestToday = todayIn('Pacific/Kiritimati', now);
  const sent = sql`(SELECT count(*) FROM ${emailDeliveries} d WHERE d.invoice_id = ${invoices.id} AND d.reminder_day IS NOT NULL)`;
  // Open invoices of workspaces that remind, past due, with a reminder not yet queued.
  const candidates = await db
    .select({ invoice: invoices, timeZone: workspaces.timeZone, days: workspaces.reminderDays })
    .from(invoices)
    .innerJoin(workspaces, eq(workspaces.id, invoices.workspaceId))
    .where(and(eq(workspaces.remindersEnabled, true), eq(invoices.status, 'open'), lt(invoices.dueDate, latestToday), lt(sent, sql`json_array_length(${workspaces.reminderDays})`)))
    .limit(CHUNK);
  const queued: string[] = [];
  for (const { invoice, timeZone, days } of candidates) {
    const today = todayIn(timeZone, now);
    const to = invoice.billTo ? (JSON.parse(invoice.billTo) as BillToSnapshot).email : null;
    const origin = config(env).PUBLIC_URL ?? invoice.linkOrigin;
    if (!to || !origin) continue; // no one to remind, or no link to give them
    const ctx = systemContext(env, invoice.workspaceId, REMINDERS_JOB, timeZone);
    for (const day of JSON.parse(days) as number[]) {
      if (addDays(invoice.dueDate, day) > today) continue;
      const row = outboxRow(ctx, { invoiceId: invoice.id, kind: 'reminder', to: [to], cc: [], message: null, linkOrigin: origin, reminderDay: day });
      const inserted = await ctx.db.insert(emailDeliveries).values(row).onConflictDoNothing().returning({ id: emailDeliveries.id });
      queued.push(...inserted.map((r) => r.id));
    }
  }
  await enqueueEmailsQuietly(env, queued);
  return queued.length;
}
