// Quotes (§18): create (as a draft), read, list, edit or delete while a draft, and revise. Every
// change is one D1 batch led by a guarded write, with its event in the same batch. Numbers come from
// the workspace's quote sequence, drawn in the batch that writes the quote (invoices/numbering.ts).
import { serviceColumns } from '../documents/schemas';
import { and, desc, eq, exists, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { clients, quotes, workspaces } from '../../db/schema';
import { invalidField, invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { changedRows, insertIf, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { assertDocumentTotal } from '../../lib/money';
import { assertProjectOfClient, referencedClient, referencedProject } from '../../lib/references';
import { LATEST_DATE } from '../../lib/schemas';
import { addDays, nowIso, todayIn } from '../../lib/time';
import { changedAttributes, recordEvent } from '../events/record';
import { assertConvertible } from '../rates/convertible';
import { buildLines, type DocumentContent, lineInputOf } from '../invoices/lines';
import { giveBackNumber, isUnnumbered, numberIsFree, numberTaken, QUOTE_SEQUENCE, withInvoiceNumber } from '../invoices/numbering';
import { documentSettingsFor } from '../invoices/tax-situation';
import { getWorkspace, type WorkspaceRow } from '../workspaces/settings';
import type { CreateQuoteInput, QuoteFilter, UpdateQuoteInput } from './schemas';
import { VALID_DAYS } from './schemas';
import { parseLines, type QuoteRow, serializeQuote, storedLines } from './serialize';

/** The quote as the API returns it (and its events carry), without its links. */
export const quoteObject = (row: QuoteRow) => serializeQuote(row);

/** "This quote now has exactly this updated_at": true only for the batch that wrote it. */
export const wroteQuote = (ctx: WorkspaceContext, id: string, updatedAt: string): SQL =>
  exists(ctx.db.select({ one: sql`1` }).from(quotes).where(and(eq(quotes.id, id), eq(quotes.updatedAt, updatedAt))));

/** The guard every change is written under: the quote is still exactly as it was read. */
export const unchangedQuote = (ctx: WorkspaceContext, before: QuoteRow) =>
  and(eq(quotes.id, before.id), inWorkspace(ctx, quotes), eq(quotes.status, before.status), eq(quotes.updatedAt, before.updatedAt))!;

/** The same guard as a condition any statement can carry (a counter bump, an invoice's insert). */
export const quoteStillAsRead = (ctx: WorkspaceContext, before: QuoteRow) =>
  exists(ctx.db.select({ one: sql`1` }).from(quotes).where(unchangedQuote(ctx, before)));

async function clientAndWorkspace(ctx: WorkspaceContext, clientId: string) {
  const [[client], [workspace]] = await ctx.db.batch([
    ctx.db.select().from(clients).where(and(eq(clients.id, clientId), inWorkspace(ctx, clients))),
    ctx.db.select().from(workspaces).where(eq(workspaces.id, ctx.workspaceId)),
  ]);
  if (!client) throw invalidField('client_id', 'No such client.');
  if (!workspace) throw notFound('Workspace');
  return { client, workspace };
}

type NumberAt = WorkspaceRow['numberAt'];

/** A quote not (yet) emailed. */
const NO_EMAIL = {
  emailTo: null, emailCc: null, emailMessage: null, emailStatus: null, emailAttempts: 0, emailError: null, emailNextAttemptAt: null, emailLeaseUntil: null, emailSentAt: null,
} satisfies Partial<QuoteRow>;

const contentOf = (row: QuoteRow): DocumentContent => ({
  line_items: parseLines(row).map(lineInputOf),
  discount: row.discount ? JSON.parse(row.discount) : null,
  tax_exemption_reason: row.taxExemptionReason,
  tax_exemption_code: row.taxExemptionCode,
});

/**
 * Writes a new quote under its number (`explicit`, else the workspace's next quote number, or, when
 * the workspace numbers at send, none yet: invoices/numbering.ts). `guard` must hold for it to be
 * written; `after(written)` are statements that follow it in the same batch, conditional on
 * `written` (this batch wrote the quote).
 */
async function insertQuote(
  ctx: WorkspaceContext, row: QuoteRow, explicit: string | undefined, numberAt: NumberAt,
  extras: { guard?: SQL; after?: (written: SQL) => BatchItem<'sqlite'>[] } = {},
) {
  return withInvoiceNumber(ctx, explicit, async (number) => {
    const written = wroteQuote(ctx, row.id, row.updatedAt);
    const statements: BatchItem<'sqlite'>[] = [
      ...number.before,
      insertIf(ctx.db, quotes, { ...row, number: number.value as unknown as string }, and(numberIsFree(ctx, number.value, undefined, QUOTE_SEQUENCE), extras.guard)!),
      // An unnumbered draft's event keeps the object's null (its stored "number" is its id).
      number.unnumbered
        ? recordEvent(ctx, 'quote.created', quoteObject({ ...row, number: row.id }), { ifChanged: true })
        : recordEvent(ctx, 'quote.created', quoteObject(row), { ifChanged: true, fill: { number: number.value } }),
      ...(extras.after?.(written) ?? []),
      ctx.db.select({ number: quotes.number }).from(quotes).where(eq(quotes.id, row.id)),
    ];
    const results = await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    const found = results.at(-1) as { number: string }[];
    return found[0] ? { ...row, number: found[0].number } : undefined;
  }, extras.guard, QUOTE_SEQUENCE, numberAt === 'send' ? row.id : undefined);
}

export async function createQuote(ctx: ServiceContext, input: CreateQuoteInput): Promise<QuoteRow> {
  const { client, workspace } = await clientAndWorkspace(ctx, input.client_id);
  await assertProjectOfClient(ctx, input.project_id, client.id);
  const issueDate = input.issue_date ?? todayIn(ctx.timeZone);
  const validUntil = input.valid_until ?? addDays(issueDate, VALID_DAYS);
  if (validUntil > LATEST_DATE) throw invalidField('issue_date', `The default valid_until (issue_date + ${VALID_DAYS} days) would be after ${LATEST_DATE}; send valid_until.`);
  if (validUntil < issueDate) throw invalidField('valid_until', 'valid_until must not be before issue_date.');
  const currency = input.currency ?? client.currency;
  await assertConvertible(ctx.env, currency);
  const id = newId('quote');
  const taxRounding = workspace.taxRounding;
  const { rows, columns } = buildLines(id, input, documentSettingsFor(workspace, client, taxRounding));
  assertDocumentTotal(columns.total);
  const now = nowIso();
  const row: QuoteRow = {
    id, userId: ctx.userId, workspaceId: ctx.workspaceId, number: '', status: 'draft', clientId: client.id, projectId: input.project_id ?? null,
    currency, issueDate, validUntil, lineItems: storedLines(rows), ...columns, taxRounding, notes: input.notes ?? null, terms: input.terms ?? null,
    serviceDate: null, servicePeriodStart: null, servicePeriodEnd: null, ...serviceColumns(input),
    onAccept: input.on_accept, issuer: null, billTo: null, locale: input.locale ?? null, linkVersion: null, linkHash: null, linkOrigin: null, viewedAt: null,
    accepted: null, declined: null, invoiceId: null, revisionOf: null, sentAt: null, createdAt: now, updatedAt: now, ...NO_EMAIL,
  };
  return insertQuote(ctx, row, input.number, workspace.numberAt);
}

export async function getQuote(ctx: WorkspaceContext, id: string): Promise<QuoteRow> {
  const [row] = await ctx.db.select().from(quotes).where(and(eq(quotes.id, id), inWorkspace(ctx, quotes)));
  if (!row) throw notFound('Quote');
  return row;
}

/** The one quote `which` selects, with its client and workspace, in one batch; undefined if none. */
export async function readQuoteWithParties(db: Db, which: SQL) {
  const theQuote = (column: typeof quotes.clientId | typeof quotes.workspaceId) => db.select({ id: column }).from(quotes).where(which);
  const [rows, [workspace], [client]] = await db.batch([
    db.select().from(quotes).where(which),
    db.select().from(workspaces).where(inArray(workspaces.id, theQuote(quotes.workspaceId))),
    db.select().from(clients).where(inArray(clients.id, theQuote(quotes.clientId))),
  ]);
  const quote = rows[0];
  if (!quote || !workspace || !client) return undefined;
  return { quote, workspace, client };
}

export async function getQuoteWithParties(ctx: WorkspaceContext, id: string) {
  const found = await readQuoteWithParties(ctx.db, and(eq(quotes.id, id), inWorkspace(ctx, quotes))!);
  if (!found) throw notFound('Quote');
  return found;
}

export async function listQuotes(ctx: WorkspaceContext, filter: QuoteFilter & { beforeId?: string }) {
  const conditions: (SQL | undefined)[] = [inWorkspace(ctx, quotes)];
  if (filter.status) conditions.push(eq(quotes.status, filter.status));
  if (filter.client_id) conditions.push(eq(quotes.clientId, filter.client_id));
  if (filter.beforeId) conditions.push(lt(quotes.id, filter.beforeId));
  return ctx.db.select().from(quotes).where(and(...conditions)).orderBy(desc(quotes.id)).limit(filter.limit + 1);
}

async function draftQuote(ctx: WorkspaceContext, id: string): Promise<QuoteRow> {
  const quote = await getQuote(ctx, id);
  if (quote.status !== 'draft') throw invalidState(`Quote ${quote.number} is ${quote.status}; only drafts can be changed or deleted.`);
  return quote;
}

export async function updateQuote(ctx: ServiceContext, id: string, input: UpdateQuoteInput): Promise<QuoteRow> {
  const newClient = input.client_id ? await referencedClient(ctx, input.client_id) : undefined;
  if (input.project_id) await referencedProject(ctx, input.project_id);
  if (input.currency) await assertConvertible(ctx.env, input.currency);
  return retryOnRace('quote', async () => {
    const before = await draftQuote(ctx, id);
    const set: Partial<QuoteRow> = { updatedAt: nowIso() };
    const touches = input.line_items !== undefined || input.discount !== undefined || input.tax_exemption_reason !== undefined || input.tax_exemption_code !== undefined;
    if (touches) {
      const current = contentOf(before);
      const content: DocumentContent = {
        line_items: input.line_items ?? current.line_items,
        discount: input.discount !== undefined ? input.discount : current.discount,
        tax_exemption_reason: input.tax_exemption_reason !== undefined ? input.tax_exemption_reason : current.tax_exemption_reason,
        tax_exemption_code: input.tax_exemption_code !== undefined ? input.tax_exemption_code : current.tax_exemption_code,
      };
      // New lines take their default tax from the client the quote goes to.
      const { client, workspace } = await clientAndWorkspace(ctx, newClient?.id ?? before.clientId);
      const { rows, columns } = buildLines(id, content, documentSettingsFor(workspace, client, before.taxRounding));
      assertDocumentTotal(columns.total);
      Object.assign(set, columns, { lineItems: storedLines(rows) });
    }
    if (input.client_id !== undefined) set.clientId = input.client_id;
    if (input.project_id !== undefined) set.projectId = input.project_id;
    if (input.currency !== undefined) set.currency = input.currency;
    if (input.number !== undefined) set.number = input.number;
    if (input.notes !== undefined) set.notes = input.notes;
    Object.assign(set, serviceColumns(input));
    if (input.terms !== undefined) set.terms = input.terms;
    if (input.locale !== undefined) set.locale = input.locale;
    if (input.on_accept !== undefined) set.onAccept = input.on_accept;
    if (input.issue_date !== undefined) set.issueDate = input.issue_date;
    if (input.valid_until !== undefined) set.validUntil = input.valid_until;
    const after: QuoteRow = { ...before, ...set };
    if (after.validUntil < after.issueDate) throw invalidField('valid_until', 'valid_until must not be before issue_date.');
    if (input.client_id !== undefined || input.project_id !== undefined) await assertProjectOfClient(ctx, after.projectId, after.clientId);
    const [updated] = await ctx.db.batch([
      ctx.db.update(quotes).set(set).where(and(unchangedQuote(ctx, before), input.number !== undefined ? numberIsFree(ctx, input.number, id, QUOTE_SEQUENCE) : undefined)),
      recordEvent(ctx, 'quote.updated', quoteObject(after), { previous: changedAttributes(quoteObject(before), quoteObject(after)), ifChanged: true }),
    ]);
    if (changedRows(updated) > 0) return after;
    const now = await getQuote(ctx, id);
    if (input.number !== undefined && now.updatedAt === before.updatedAt && now.status === 'draft') throw numberTaken(input.number, QUOTE_SEQUENCE);
    return undefined;
  });
}

export async function deleteQuote(ctx: ServiceContext, id: string): Promise<void> {
  await retryOnRace('quote', async () => {
    const before = await draftQuote(ctx, id);
    // Its number, the newest of the sequence, goes back to it (§20; guarded in SQL on the delete).
    const [deleted] = await ctx.db.batch([
      ctx.db.delete(quotes).where(unchangedQuote(ctx, before)),
      recordEvent(ctx, 'quote.deleted', quoteObject(before), { ifChanged: true }),
      ...(isUnnumbered(before) ? [] : [giveBackNumber(ctx, before, QUOTE_SEQUENCE)]),
    ]);
    return changedRows(deleted) > 0 ? true : undefined;
  });
}

/**
 * open, declined or expired → a new draft copy with `revision_of`; an open original becomes
 * `canceled` in the same batch, and only if the copy was written (so a lost race leaves both as they were).
 */
export async function reviseQuote(ctx: ServiceContext, id: string): Promise<QuoteRow> {
  return retryOnRace('quote', async () => {
    const before = await getQuote(ctx, id);
    if (!['open', 'declined', 'expired'].includes(before.status)) throw invalidState(`Cannot revise quote ${before.number}: it is ${before.status}.`);
    const now = nowIso();
    const today = todayIn(ctx.timeZone);
    const newId_ = newId('quote');
    const lines = parseLines(before).map((line) => ({ ...line, id: newId('lineItem'), invoiceId: newId_ }));
    // The copy is valid as long from today as the original was from its issue date.
    const validDays = Math.round((Date.parse(before.validUntil) - Date.parse(before.issueDate)) / 86_400_000);
    const validUntil = addDays(today, validDays) > LATEST_DATE ? LATEST_DATE : addDays(today, validDays);
    const copy: QuoteRow = {
      ...before, id: newId_, userId: ctx.userId, number: '', status: 'draft', issueDate: today, validUntil, lineItems: storedLines(lines),
      issuer: null, billTo: null, locale: null, linkVersion: null, linkHash: null, linkOrigin: null, viewedAt: null,
      accepted: null, declined: null, invoiceId: null, revisionOf: before.id, sentAt: null, createdAt: now, updatedAt: now, ...NO_EMAIL,
    };
    const canceled: QuoteRow = { ...before, status: 'canceled', updatedAt: now };
    const guard = quoteStillAsRead(ctx, before);
    const { numberAt } = await getWorkspace(ctx);
    try {
      return await insertQuote(ctx, copy, undefined, numberAt, {
        guard,
        after: (written) =>
          before.status === 'open'
            ? [
                // The original by its own row: `guard` and `written` are EXISTS conditions that name no row to update.
                ctx.db.update(quotes).set({ status: 'canceled', updatedAt: now }).where(and(unchangedQuote(ctx, before), written)),
                recordEvent(ctx, 'quote.canceled', quoteObject(canceled), { ifChanged: true }),
              ]
            : [],
      });
    } catch (err) {
      // The original changed under us (the number's retries all failed on the guard): read it again.
      const current = await getQuote(ctx, id);
      if (current.updatedAt !== before.updatedAt) return undefined;
      throw err;
    }
  });
}
