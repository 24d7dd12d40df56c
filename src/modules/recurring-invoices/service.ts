// Recurring invoices (§12): the schedule a member sets up, changed while it runs, paused, resumed and
// canceled. Every change is one batch led by an UPDATE guarded on the state it read, with its event.
// Issuing the invoices is the cron's (issue.ts).
import { and, desc, eq, lt } from 'drizzle-orm';
import { recurringInvoices } from '../../db/schema';
import { getWorkspace } from '../workspaces/settings';
import { invalidField, invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { assertProjectOfClient, assertReferencedProject, referencedClient } from '../../lib/references';
import { assertDocumentTotal } from '../../lib/money';
import { LATEST_DATE } from '../../lib/schemas';
import { addDays, nowIso } from '../../lib/time';
import { DEFAULT_UNIT } from '../../lib/units';
import { changedAttributes, recordEvent } from '../events/record';
import type { EventType } from '../events/types';
import { computeDocument, type DocumentContent, type DocumentSettings } from '../invoices/lines';
import { documentSettingsFor } from '../invoices/tax-situation';
import { assertConvertible } from '../rates/convertible';
import { firstPeriodOnOrAfter, issueDate, periodExists, type Schedule, startOfDayIn, todayIn, upcomingDates } from './schedule';
import type { CreateRecurringInput, UpdateRecurringInput } from './schemas';
import { discountRecord } from '../invoices/schemas';

export type RecurringRow = typeof recurringInvoices.$inferSelect;
type LineInputs = CreateRecurringInput['line_items'];

export const scheduleOf = (row: RecurringRow): Schedule => ({
  startDate: row.startDate, interval: row.interval, intervalCount: row.intervalCount, endDate: row.endDate, maxOccurrences: row.maxOccurrences,
  dueInDays: row.dueInDays,
});

const running = (row: RecurringRow) => row.status === 'active' || row.status === 'paused';

/** What the template's invoices are computed from. */
export function templateContent(row: RecurringRow): DocumentContent {
  return {
    line_items: JSON.parse(row.lineItems) as LineInputs,
    discount: row.discount ? JSON.parse(row.discount) : null,
    tax_exemption_reason: row.taxExemptionReason,
    tax_exemption_code: row.taxExemptionCode,
  };
}

/**
 * The template's lines as the invoices will have them. Its lines carry their categories, resolved
 * when written; templates from before categories existed resolve them here as a workspace without a
 * VAT id would, and when issued with the workspace as it is then.
 */
export function serializeRecurring(row: RecurringRow) {
  const content = templateContent(row);
  const figures = computeDocument(content, { taxRounding: row.taxRounding, issuerHasVatId: false });
  const lines = figures.lines.map((line, i) => ({
    description: content.line_items[i]!.description, quantity: line.quantity, unit: content.line_items[i]!.unit ?? DEFAULT_UNIT, unit_amount: line.unit_amount,
    gross: line.gross, discount_percent: line.discount_percent, discount_amount: line.discount_amount, amount: line.amount,
    tax_category: line.tax_category, tax_rate: line.tax_rate, tax: line.tax,
  }));
  return {
    id: row.id, status: row.status, client_id: row.clientId, project_id: row.projectId, currency: row.currency, line_items: lines,
    subtotal: figures.subtotal, discount: row.discount ? (JSON.parse(row.discount) as { percent: number | null; amount: number | null; reason: string | null }) : null,
    discount_total: figures.discount_total, tax: figures.tax, total: figures.total, tax_rounding: row.taxRounding, tax_breakdown: figures.tax_breakdown,
    tax_exemption_reason: row.taxExemptionReason, tax_exemption_code: row.taxExemptionCode, buyer_reference: row.buyerReference, purchase_order: row.purchaseOrder,
    notes: row.notes,
    due_in_days: row.dueInDays, interval: row.interval, interval_count: row.intervalCount, start_date: row.startDate, end_date: row.endDate,
    max_occurrences: row.maxOccurrences, auto_send: row.autoSend, time_zone: row.timeZone,
    next_issue_date: running(row) ? row.nextIssueDate : null,
    upcoming: running(row) ? upcomingDates(scheduleOf(row), row.nextPeriod, row.invoicesCreated) : [],
    invoices_created: row.invoicesCreated, last_invoice_id: row.lastInvoiceId, created_at: row.createdAt, updated_at: row.updatedAt,
  };
}

/** Where period n puts the schedule: its date, or completed when there is no such period. */
export function positionAt(row: RecurringRow, n: number): Pick<RecurringRow, 'nextPeriod' | 'nextIssueDate' | 'nextIssueAt' | 'status'> {
  if (!periodExists(scheduleOf(row), n, row.invoicesCreated)) return { nextPeriod: n, nextIssueDate: null, nextIssueAt: null, status: 'completed' };
  const date = issueDate(scheduleOf(row), n);
  return { nextPeriod: n, nextIssueDate: date, nextIssueAt: startOfDayIn(date, row.timeZone), status: row.status };
}

/**
 * The template's §15 columns from a request's content: checked by the engine as an invoice would be
 * (a 422 naming the field), its lines stored with their categories and rates resolved against the
 * workspace and the client now (§20). A small business's note becomes the template's own exemption
 * reason when it gives none, so the template and its invoices read without the workspace.
 */
function templateColumns(content: DocumentContent, settings: DocumentSettings) {
  const figures = computeDocument(content, settings);
  assertDocumentTotal(figures.total);
  const d = content.discount;
  const note = settings.taxDefaults?.exemptionReasons.E;
  const takesNote = note && !content.tax_exemption_reason && !content.tax_exemption_code && figures.lines.some((line) => line.tax_category === 'E');
  return {
    lineItems: JSON.stringify(content.line_items.map((line, i) => ({ ...line, tax_category: figures.lines[i]!.tax_category, tax_rate: figures.lines[i]!.tax_rate }))),
    discount: d ? JSON.stringify(discountRecord(d)) : null,
    taxExemptionReason: takesNote ? note : (content.tax_exemption_reason ?? null),
    taxExemptionCode: content.tax_exemption_code ?? null,
  };
}

export async function createRecurring(ctx: ServiceContext, input: CreateRecurringInput, linkOrigin: string): Promise<RecurringRow> {
  const client = await referencedClient(ctx, input.client_id);
  await assertProjectOfClient(ctx, input.project_id, client.id);
  const currency = input.currency ?? client.currency;
  await assertConvertible(ctx.env, currency);
  const timeZone = input.time_zone ?? ctx.timeZone;
  if (input.start_date < todayIn(timeZone)) throw invalidField('start_date', `start_date must be today or later in ${timeZone} (today there is ${todayIn(timeZone)}).`);
  if (addDays(input.start_date, input.due_in_days) > LATEST_DATE) {
    throw invalidField('start_date', `The first invoice would be due after ${LATEST_DATE} (start_date + due_in_days); start earlier or give it fewer days.`);
  }
  const workspace = await getWorkspace(ctx);
  const taxRounding = workspace.taxRounding;
  const columns = templateColumns(input, documentSettingsFor(workspace, client, taxRounding));
  const now = nowIso();
  const base: RecurringRow = {
    id: newId('recurringInvoice'), userId: ctx.userId, workspaceId: ctx.workspaceId, status: 'active', clientId: client.id, projectId: input.project_id ?? null,
    currency, ...columns, taxRounding, buyerReference: input.buyer_reference ?? null, purchaseOrder: input.purchase_order ?? null, notes: input.notes ?? null, dueInDays: input.due_in_days, interval: input.interval,
    intervalCount: input.interval_count, startDate: input.start_date, endDate: input.end_date ?? null, maxOccurrences: input.max_occurrences ?? null,
    autoSend: input.auto_send, timeZone, nextPeriod: 0, nextIssueDate: input.start_date, nextIssueAt: startOfDayIn(input.start_date, timeZone), invoicesCreated: 0, lastInvoiceId: null, linkOrigin, createdAt: now, updatedAt: now,
  };
  await ctx.db.batch([ctx.db.insert(recurringInvoices).values(base), recordEvent(ctx, 'recurring_invoice.created', serializeRecurring(base))]);
  return base;
}

export async function listRecurring(ctx: WorkspaceContext, filter: { limit: number; status?: RecurringRow['status']; client_id?: string; beforeId?: string }) {
  return ctx.db
    .select()
    .from(recurringInvoices)
    .where(
      and(
        inWorkspace(ctx, recurringInvoices),
        filter.status ? eq(recurringInvoices.status, filter.status) : undefined,
        filter.client_id ? eq(recurringInvoices.clientId, filter.client_id) : undefined,
        filter.beforeId ? lt(recurringInvoices.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(recurringInvoices.id))
    .limit(filter.limit + 1);
}

export async function getRecurring(ctx: WorkspaceContext, id: string): Promise<RecurringRow> {
  const row = await ctx.db.query.recurringInvoices.findFirst({ where: and(eq(recurringInvoices.id, id), inWorkspace(ctx, recurringInvoices)) });
  if (!row) throw notFound('Recurring invoice');
  return row;
}

/** Writes `set` over exactly the state read, with its event; undefined if another request changed it first. */
async function transition(ctx: WorkspaceContext, before: RecurringRow, set: Partial<RecurringRow>, type: EventType, previous?: Record<string, unknown>) {
  const after: RecurringRow = { ...before, ...set, updatedAt: nowIso() };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(recurringInvoices)
      .set({ ...set, updatedAt: after.updatedAt })
      .where(and(eq(recurringInvoices.id, before.id), inWorkspace(ctx, recurringInvoices), eq(recurringInvoices.updatedAt, before.updatedAt))),
    recordEvent(ctx, type, serializeRecurring(after), { ifChanged: true, ...(previous ? { previous } : {}) }),
  ]);
  return changedRows(updated) > 0 ? after : undefined;
}

/** Changes what the invoices not yet issued will be. A schedule that ended or was canceled is as it is. */
export async function updateRecurring(ctx: ServiceContext, id: string, input: UpdateRecurringInput): Promise<RecurringRow> {
  if (input.currency) await assertConvertible(ctx.env, input.currency);
  return retryOnRace('recurring invoice', async () => {
    const before = await getRecurring(ctx, id);
    if (!running(before)) throw invalidState(`The recurring invoice is ${before.status}; nothing of it is left to change.`);
    await assertReferencedProject(ctx, input.project_id);
    await assertProjectOfClient(ctx, input.project_id, before.clientId);
    const set: Partial<RecurringRow> = {};
    if (input.project_id !== undefined) set.projectId = input.project_id;
    if (input.currency !== undefined) set.currency = input.currency;
    if (input.line_items !== undefined || input.discount !== undefined || input.tax_exemption_reason !== undefined || input.tax_exemption_code !== undefined) {
      const kept = templateContent(before);
      const content: DocumentContent = {
        line_items: input.line_items ?? kept.line_items,
        discount: input.discount !== undefined ? input.discount : kept.discount,
        tax_exemption_reason: input.tax_exemption_reason !== undefined ? input.tax_exemption_reason : kept.tax_exemption_reason,
        tax_exemption_code: input.tax_exemption_code !== undefined ? input.tax_exemption_code : kept.tax_exemption_code,
      };
      const settings = documentSettingsFor(await getWorkspace(ctx), await referencedClient(ctx, before.clientId), before.taxRounding);
      Object.assign(set, templateColumns(content, settings));
    }
    if (input.buyer_reference !== undefined) set.buyerReference = input.buyer_reference;
    if (input.purchase_order !== undefined) set.purchaseOrder = input.purchase_order;
    if (input.notes !== undefined) set.notes = input.notes;
    if (input.due_in_days !== undefined) set.dueInDays = input.due_in_days;
    if (input.end_date !== undefined) set.endDate = input.end_date;
    if (input.max_occurrences !== undefined) set.maxOccurrences = input.max_occurrences;
    if (input.auto_send !== undefined) set.autoSend = input.auto_send;
    if (set.endDate && set.endDate < before.startDate) throw invalidField('end_date', 'end_date must not be before start_date.');
    if (input.due_in_days !== undefined && before.nextIssueDate && addDays(before.nextIssueDate, input.due_in_days) > LATEST_DATE) {
      throw invalidField('due_in_days', `The next invoice (issued ${before.nextIssueDate}) would be due after ${LATEST_DATE}.`);
    }
    Object.assign(set, positionAt({ ...before, ...set }, before.nextPeriod));
    const after = { ...before, ...set };
    const previous = changedAttributes(serializeRecurring(before), serializeRecurring(after));
    return transition(ctx, before, set, after.status === 'completed' ? 'recurring_invoice.completed' : 'recurring_invoice.updated', previous);
  });
}

export async function pauseRecurring(ctx: ServiceContext, id: string) {
  return retryOnRace('recurring invoice', async () => {
    const before = await getRecurring(ctx, id);
    if (before.status !== 'active') throw invalidState(`Only an active recurring invoice can be paused; this one is ${before.status}.`);
    return transition(ctx, before, { status: 'paused' }, 'recurring_invoice.paused');
  });
}

/** Periods that passed while paused are skipped: the next is the first on or after today in its zone. */
export async function resumeRecurring(ctx: ServiceContext, id: string) {
  return retryOnRace('recurring invoice', async () => {
    const before = await getRecurring(ctx, id);
    if (before.status !== 'paused') throw invalidState(`Only a paused recurring invoice can be resumed; this one is ${before.status}.`);
    const n = firstPeriodOnOrAfter(scheduleOf(before), todayIn(before.timeZone), before.nextPeriod);
    const position = positionAt({ ...before, status: 'active' }, n);
    return transition(ctx, before, position, position.status === 'completed' ? 'recurring_invoice.completed' : 'recurring_invoice.resumed');
  });
}

export async function cancelRecurring(ctx: ServiceContext, id: string) {
  return retryOnRace('recurring invoice', async () => {
    const before = await getRecurring(ctx, id);
    if (!running(before)) throw invalidState(`The recurring invoice is already ${before.status}.`);
    return transition(ctx, before, { status: 'canceled', nextIssueDate: null, nextIssueAt: null }, 'recurring_invoice.canceled');
  });
}

export async function deleteRecurring(ctx: ServiceContext, id: string): Promise<void> {
  const deleted = await ctx.db.delete(recurringInvoices).where(and(eq(recurringInvoices.id, id), inWorkspace(ctx, recurringInvoices))).returning({ id: recurringInvoices.id });
  if (!deleted.length) throw notFound('Recurring invoice');
}
