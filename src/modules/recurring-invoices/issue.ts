// The cron's half of recurring invoices (§12): every schedule whose next date has come in its time
// zone issues that period's invoice, exactly once however often the cron runs, overlaps or retries.
// One batch per period holds the counter bump, the invoice, its lines and event, and the schedule's
// advance, each conditional on the schedule still standing at that period; the unique index on
// (recurring_invoice_id, recurring_period) is the last guard. Due schedules are found by an index
// on (status, next_issue_at), the moment the issue date begins in the schedule's zone, a chunk at a
// time and a bounded number a run (lib/chunked.ts): the next run carries on.
import { and, asc, eq, exists, gt, lte, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { clients, invoices, recurringInvoices, workspaces } from '../../db/schema';
import { config } from '../../config';
import { systemContext, type WorkspaceContext } from '../../lib/context';
import { budgetSpent, CRON_CHUNK, inChunks } from '../../lib/chunked';
import { budgetOf } from '../../lib/query-budget';
import { createDb } from '../../lib/db';
import { insertIf } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { addDays, nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { sendInvoice } from '../invoices/actions';
import { buildLines, insertLineStatements } from '../invoices/lines';
import { bumpCounter, currentDefaultNumber, numberIsFree, skipNumbersInUse } from '../invoices/numbering';
import type { InvoiceRow } from '../invoices/serialize';
import { invoiceObject, issuerHasVatId } from '../invoices/service';
import type { WorkspaceRow } from '../workspaces/settings';
import { wroteInvoice } from '../invoices/wrote-invoice';
import { positionAt, type RecurringRow, serializeRecurring, templateContent } from './service';

export const RECURRING_JOB = 'recurring';
const SCHEDULES_PER_RUN = 1000;
const NUMBER_ATTEMPTS = 3;

/** A due schedule, with what its invoices take from the workspace and the client as they are today. */
type DueSchedule = {
  schedule: RecurringRow;
  /** The workspace's issuer: whether it has a VAT id decides the category of lines written before categories were resolved. */
  issuer: WorkspaceRow['issuer'] | null;
  /** The client's buyer reference, for a template that has none. */
  clientBuyerReference: string | null;
  /** When the workspace numbers its invoices (§20): at `send`, the issued draft waits for its send to draw one. */
  numberAt: WorkspaceRow['numberAt'] | null;
};

/** Issues what is due. Returns how many invoices it issued. */
export async function issueDueInvoices(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const nowAt = new Date(now).toISOString();
  // The workspace's issuer and the client's buyer reference come with each schedule, so that a
  // period costs one D1 round trip, its batch: the run's query budget then goes to issuing.
  const find = (after: DueSchedule | undefined): Promise<DueSchedule[]> =>
    db
      .select({ schedule: recurringInvoices, issuer: workspaces.issuer, clientBuyerReference: clients.buyerReference, numberAt: workspaces.numberAt })
      .from(recurringInvoices)
      .leftJoin(workspaces, eq(workspaces.id, recurringInvoices.workspaceId))
      .leftJoin(clients, eq(clients.id, recurringInvoices.clientId))
      .where(and(
        eq(recurringInvoices.status, 'active'), lte(recurringInvoices.nextIssueAt, nowAt),
        after ? or(gt(recurringInvoices.nextIssueAt, after.schedule.nextIssueAt!), and(eq(recurringInvoices.nextIssueAt, after.schedule.nextIssueAt!), gt(recurringInvoices.id, after.schedule.id))) : undefined,
      ))
      .orderBy(asc(recurringInvoices.nextIssueAt), asc(recurringInvoices.id))
      .limit(CRON_CHUNK);
  let issued = 0;
  const budget = budgetOf(env);
  await inChunks(find, async (due) => {
    let schedule: RecurringRow | undefined = due.schedule;
    try {
      // A schedule behind by several periods (the cron was down) catches up, each period once, as far
      // as the run's query budget goes.
      while (schedule?.status === 'active' && schedule.nextIssueAt !== null && schedule.nextIssueAt <= nowAt && !budgetSpent(budget)) {
        schedule = await issuePeriod(env, { ...due, schedule }); // undefined: another run issued it
        if (schedule) issued++;
      }
    } catch (err) {
      // One schedule that cannot issue (no free number) waits for the next run; the others go on.
      console.error(JSON.stringify({ level: 'error', message: 'recurring invoice not issued', recurring_invoice_id: due.schedule.id, reason: String(err) }));
    }
  }, SCHEDULES_PER_RUN, budget);
  return issued;
}

/** Issues the schedule's next period; the schedule after it, or undefined if another run got there first. */
async function issuePeriod(env: Env, { schedule, issuer, clientBuyerReference, numberAt }: DueSchedule): Promise<RecurringRow | undefined> {
  const ctx = systemContext(env, schedule.workspaceId, RECURRING_JOB, schedule.timeZone);
  const n = schedule.nextPeriod;
  const issueDate = schedule.nextIssueDate!;
  const id = newId('invoice');
  const { rows: lines, columns } = buildLines(id, templateContent(schedule), { taxRounding: schedule.taxRounding, issuerHasVatId: issuer ? issuerHasVatId({ issuer }) : false });
  const at = nowIso();
  const issuedNow = { ...schedule, invoicesCreated: schedule.invoicesCreated + 1, lastInvoiceId: id, updatedAt: at };
  const after: RecurringRow = { ...issuedNow, ...positionAt(issuedNow, n + 1) };
  const row: InvoiceRow = {
    id, userId: schedule.userId, workspaceId: schedule.workspaceId, number: '', status: 'draft', clientId: schedule.clientId, projectId: schedule.projectId,
    currency: schedule.currency, issueDate, dueDate: addDays(issueDate, schedule.dueInDays), ...columns, taxRounding: schedule.taxRounding,
    buyerReference: schedule.buyerReference ?? clientBuyerReference, purchaseOrder: schedule.purchaseOrder, amountPaid: 0, notes: schedule.notes,
    sentAt: null, paidAt: null, voidedAt: null, createdAt: at, updatedAt: at, issuer: null, billTo: null, locale: null, paymentInstructions: null, linkVersion: null, linkHash: null,
    viewedAt: null, linkOrigin: null, recurringInvoiceId: schedule.id, recurringPeriod: n, overdueNotifiedAt: null,
    overpaidAmount: 0, creditedAmount: 0, creditNoteIds: null, quoteId: null,
    // §20: the period it covers, from its issue date to the day before the next one's (a last period: its issue date).
    serviceDate: after.nextIssueDate ? null : issueDate,
    servicePeriodStart: after.nextIssueDate ? issueDate : null,
    servicePeriodEnd: after.nextIssueDate ? addDays(after.nextIssueDate, -1) : null,
  };
  // Everything below happens only while the schedule still stands at period n.
  const atPeriod = exists(
    ctx.db.select({ one: sql`1` }).from(recurringInvoices).where(and(eq(recurringInvoices.id, schedule.id), eq(recurringInvoices.nextPeriod, n), eq(recurringInvoices.status, 'active'))),
  );
  // Numbered at send (§20), the draft has no number until then: it stores its id (invoices/numbering.ts).
  const unnumbered = numberAt === 'send';
  const number = unnumbered ? sql`${id}` : currentDefaultNumber(ctx);
  for (let attempt = 1; attempt <= NUMBER_ATTEMPTS; attempt++) {
    const statements: BatchItem<'sqlite'>[] = [
      ...(unnumbered ? [] : [bumpCounter(ctx, atPeriod)]),
      insertIf(ctx.db, invoices, { ...row, number: number as unknown as string }, and(numberIsFree(ctx, number), atPeriod)!),
      unnumbered
        ? recordEvent(ctx, 'invoice.created', invoiceObject(ctx, { row: { ...row, number: id }, lines }), { ifChanged: true })
        : recordEvent(ctx, 'invoice.created', invoiceObject(ctx, { row, lines }), { ifChanged: true, fill: { number } }),
      ...insertLineStatements(ctx.db, lines, wroteInvoice(ctx, id, at)),
      ctx.db
        .update(recurringInvoices)
        .set({ nextPeriod: after.nextPeriod, nextIssueDate: after.nextIssueDate, nextIssueAt: after.nextIssueAt, status: after.status, invoicesCreated: sql`${recurringInvoices.invoicesCreated} + 1`, lastInvoiceId: id, updatedAt: at })
        .where(and(eq(recurringInvoices.id, schedule.id), eq(recurringInvoices.nextPeriod, n), wroteInvoice(ctx, id, at))),
      ...(after.status === 'completed' ? [recordEvent(ctx, 'recurring_invoice.completed', serializeRecurring(after), { ifChanged: true })] : []),
      ctx.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.id, id)),
    ];
    const results = await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    if ((results.at(-1) as unknown[]).length) {
      if (schedule.autoSend) await autoSend(ctx, id, schedule);
      return after;
    }
    const current = await ctx.db.query.recurringInvoices.findFirst({ where: eq(recurringInvoices.id, schedule.id) });
    if (current?.nextPeriod !== n || current.status !== 'active') return undefined;
    await skipNumbersInUse(ctx); // a hand-picked number stood in the way
  }
  throw new Error(`recurring invoice ${schedule.id}: no free invoice number for period ${n}`);
}

/** With auto_send the issued invoice is sent, and emailed, as a member's send would (§10). */
async function autoSend(ctx: WorkspaceContext, id: string, schedule: RecurringRow) {
  try {
    await sendInvoice(ctx, id, { email: true }, config(ctx.env).PUBLIC_URL ?? schedule.linkOrigin);
  } catch (err) {
    // The invoice stands as a draft; the member can send it. Logged, not retried: sending twice would email twice.
    console.error(JSON.stringify({ level: 'error', message: 'recurring invoice issued but not sent', invoice_id: id, reason: String(err) }));
  }
}
