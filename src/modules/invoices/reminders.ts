// Overdue reminders (§12): with the workspace's reminders enabled, the first cron run on or after
// each due_date + d (d in days_after_due, judged in the workspace's time zone) queues one reminder
// email through the outbox. A client gets at most one reminder per invoice per run: when several
// days have passed since the last run (the cron was down, reminders were just turned on), only the
// latest is sent, and it stands for the earlier ones: a day counts as done once a reminder for it
// or a later day exists, so they are never sent after it either. Each is at most once (the
// unique index on (invoice_id, reminder_day), and the insert's own NOT EXISTS).
import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import { emailDeliveries, invoices, workspaces } from '../../db/schema';
import { config } from '../../config';
import { systemContext } from '../../lib/context';
import { CRON_CHUNK, inChunks } from '../../lib/chunked';
import { changedRows, insertIf } from '../../lib/guarded-write';
import { budgetOf } from '../../lib/query-budget';
import { createDb } from '../../lib/db';
import { addDays, todayIn } from '../../lib/time';
import { enqueueEmailsQuietly, outboxRow } from '../emails/outbox';
import { afterRow } from './overdue';
import type { BillToSnapshot, InvoiceRow } from './serialize';

export const REMINDERS_JOB = 'reminders';
const MAX_PER_RUN = 2000;

/** Queues every reminder that has come due. Returns how many. */
export async function queueReminders(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const latestToday = todayIn('Pacific/Kiritimati', new Date(now));
  const publicUrl = config(env).PUBLIC_URL;
  // A day of days_after_due that has come somewhere on Earth, with no reminder queued for it or a later day yet.
  const reminderPending = sql`EXISTS (SELECT 1 FROM json_each(${workspaces.reminderDays}) day
    WHERE date(${invoices.dueDate}, '+' || day.value || ' days') <= ${latestToday}
      AND NOT EXISTS (SELECT 1 FROM ${emailDeliveries} d WHERE d.invoice_id = ${invoices.id} AND d.reminder_day >= day.value))`;
  const remindedThrough = sql<number | null>`(SELECT max(d.reminder_day) FROM ${emailDeliveries} d WHERE d.invoice_id = ${invoices.id})`;
  type Candidate = { invoice: InvoiceRow; timeZone: string; days: string; remindedThrough: number | null };
  const find = (after: Candidate | undefined) =>
    db
      .select({ invoice: invoices, timeZone: workspaces.timeZone, days: workspaces.reminderDays, remindedThrough })
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
  await inChunks(find, async ({ invoice, timeZone, days, remindedThrough }) => {
    const today = todayIn(timeZone, new Date(now));
    // The latest day that has come where the workspace is and that no reminder covers yet.
    const day = Math.max(...(JSON.parse(days) as number[]).filter((d) => d > (remindedThrough ?? 0) && addDays(invoice.dueDate, d) <= today));
    if (!Number.isFinite(day)) return;
    const to = (JSON.parse(invoice.billTo!) as BillToSnapshot).email!;
    const ctx = systemContext(env, invoice.workspaceId, REMINDERS_JOB, timeZone);
    const row = outboxRow(ctx, { invoiceId: invoice.id, kind: 'reminder', to: [to], cc: [], message: null, linkOrigin: publicUrl ?? invoice.linkOrigin!, reminderDay: day });
    // Written only while no reminder for this day or a later one exists, should two runs overlap.
    const inserted = await insertIf(ctx.db, emailDeliveries, row, sql`NOT EXISTS (SELECT 1 FROM ${emailDeliveries} d WHERE d.invoice_id = ${invoice.id} AND d.reminder_day >= ${day})`);
    if (changedRows(inserted) > 0) queued.push(row.id);
  }, MAX_PER_RUN, budgetOf(env));
  await enqueueEmailsQuietly(env, queued);
  return queued.length;
}
