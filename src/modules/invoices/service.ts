// Invoices: create (as a draft), read, list, and edit or delete while still a draft. Every change
// is one D1 batch led by a guarded write, with its event in the same batch; every query is scoped
// to the workspace.
import { serviceColumns } from '../documents/schemas';
import { and, asc, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { clients, invoiceLineItems, invoices, workspaces } from '../../db/schema';
import { invalidField, invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { clientOf, type Db } from '../../lib/db';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { statementShape, statementShapes } from '../../lib/statement-shape';
import { tableRows } from '../../lib/table-rows';
import { assertProjectOfClient, referencedClient, referencedProject } from '../../lib/references';
import { getWorkspace, issuerOf } from '../workspaces/settings';
import { addDays, nowIso, todayIn } from '../../lib/time';
import { assertOrderedRange } from '../../lib/validation';
import { LATEST_DATE } from '../../lib/schemas';
import { assertDocumentTotal } from '../../lib/money';
import { changedAttributes, recordEvent } from '../events/record';
import { assertConvertible } from '../rates/convertible';
import { draftStatements, plainDraftStatements } from './draft-statements';
import { draftDeletedStatements } from './draft-deleted';
import { wroteInvoice } from './wrote-invoice';
import { buildLines, type DocumentContent, insertLineStatements, lineInputOf } from './lines';
import { documentSettingsFor } from './tax-situation';
import { giveBackNumber, INVOICE_SEQUENCE, isUnnumbered, numberIsFree, numberTaken, withInvoiceNumber } from './numbering';
import type { CreateInvoiceInput, InvoiceFilter, UpdateInvoiceInput } from './schemas';
import { type InvoiceRow, type InvoiceWithLines, serializeInvoice } from './serialize';

export const INVOICE_DUE_DAYS = 30;
const placeholder = sql.placeholder;

/** The invoice as the API returns it, on the workspace's today. */
export const invoiceObject = (ctx: WorkspaceContext, { row, lines }: InvoiceWithLines) => serializeInvoice(row, lines, todayIn(ctx.timeZone));

/** Whether the workspace's issuer has a VAT id: rate-0 lines then default to Z rather than O (§15). */
export const issuerHasVatId = (workspace: Pick<typeof workspaces.$inferSelect, 'issuer'>) => Boolean(issuerOf(workspace).vat_id);

// Every create reads the client it names and, of the workspace, only its rounding mode, its issuer, when
// it numbers and its tax defaults (§20): in one statement, whose SQL text is worked out once. No client
// column shares a name with those (D1 answers a batch's rows by column name), so the locale is read under
// another.
const clientWithWorkspace = statementShape((db) =>
  db.select({
    client: clients, taxRounding: workspaces.taxRounding, issuer: workspaces.issuer, numberAt: workspaces.numberAt,
    defaultTaxRateMilli: workspaces.defaultTaxRateMilli, supplyType: workspaces.supplyType,
    workspaceLocale: sql<string>`${workspaces.locale}`.as('workspace_locale'),
  })
    .from(clients)
    .innerJoin(workspaces, eq(workspaces.id, clients.workspaceId))
    .where(and(eq(clients.id, placeholder('clientId')), eq(clients.workspaceId, placeholder('workspaceId')))));

/** The client a request names and the workspace, in one round trip. */
async function clientAndWorkspace(ctx: WorkspaceContext, clientId: string) {
  const [[found]] = await ctx.db.batch([clientWithWorkspace.with(ctx.db, { clientId, workspaceId: ctx.workspaceId })]);
  if (!found) throw invalidField('client_id', 'No such client.');
  const { client, workspaceLocale: locale, ...workspace } = found;
  return { client, workspace: { ...workspace, locale } };
}

/**
 * What another room adds to a new invoice's batch (an invoice made from time): `onlyIf` must hold
 * for the invoice to be written at all, and `alongside(id, written)` are statements that run after it,
 * each conditional on `written` (this batch wrote the invoice); `quoteId`, the quote it converts (§18).
 */
export type InvoiceBatchExtras = {
  onlyIf?: SQL;
  alongside?: (invoiceId: string, written: SQL) => BatchItem<'sqlite'>[];
  /** The client and workspace as the caller read them in a round trip of its own, its project_id vouched to be the client's. */
  parties?: Awaited<ReturnType<typeof clientAndWorkspace>>;
  quoteId?: string;
};

export async function createInvoice(ctx: ServiceContext, input: CreateInvoiceInput, extras: InvoiceBatchExtras = {}): Promise<InvoiceWithLines> {
  const { client, workspace } = extras.parties ?? (await clientAndWorkspace(ctx, input.client_id));
  if (!extras.parties) await assertProjectOfClient(ctx, input.project_id, client.id);
  const issueDate = input.issue_date ?? todayIn(ctx.timeZone);
  const dueDate = input.due_date ?? addDays(issueDate, INVOICE_DUE_DAYS);
  if (dueDate > LATEST_DATE) throw invalidField('issue_date', `The default due date (issue_date + ${INVOICE_DUE_DAYS} days) would be after ${LATEST_DATE}; send due_date.`);
  if (dueDate < issueDate) throw invalidField('due_date', 'due_date must not be before issue_date.');
  const currency = input.currency ?? client.currency;
  await assertConvertible(ctx.env, currency);

  const id = newId('invoice');
  // The workspace's rounding mode is the invoice's from now on, whatever the setting becomes.
  const taxRounding = workspace.taxRounding;
  const { rows: lines, columns } = buildLines(id, input, documentSettingsFor(workspace, client, taxRounding));
  assertDocumentTotal(columns.total);
  const now = nowIso();
  // Numbered at send (§20): a draft given no number of its own waits for its send to draw one.
  const unnumberedId = workspace.numberAt === 'send' ? id : undefined;
  return withInvoiceNumber(ctx, input.number, async (number) => {
    // The number is filled in by the batch (a default one comes from the workspace's counter).
    const row: InvoiceRow = {
      id, userId: ctx.userId, workspaceId: ctx.workspaceId, number: number.unnumbered ? id : '', status: 'draft', clientId: client.id,
      projectId: input.project_id ?? null, currency, issueDate, dueDate, ...columns, taxRounding,
      buyerReference: input.buyer_reference ?? client.buyerReference, purchaseOrder: input.purchase_order ?? null,
      amountPaid: 0, notes: input.notes ?? null, sentAt: null, paidAt: null, voidedAt: null, createdAt: now, updatedAt: now,
      issuer: null, billTo: null, locale: input.locale ?? null, paymentInstructions: null, linkVersion: null, linkHash: null, viewedAt: null, linkOrigin: null,
      recurringInvoiceId: null, recurringPeriod: null, overdueNotifiedAt: null,
      overpaidAmount: 0, creditedAmount: 0, creditNoteIds: null, quoteId: extras.quoteId ?? null,
      serviceDate: null, servicePeriodStart: null, servicePeriodEnd: null, ...serviceColumns(input),
    };
    const object = invoiceObject(ctx, { row, lines });
    // A draft of its own (no other room's guard) is written by the shapes of draft-statements.ts:
    // the plain statements with their SQL text built once. Either way the invoice's insert
    // answers the number it was given (none when it was not written), after the counter's bump.
    const draft = extras.onlyIf
      ? plainDraftStatements(ctx, row, lines, object, number, wroteInvoice(ctx, id, now), extras.onlyIf)
      : draftStatements(ctx, row, lines, object, number.explicit, number.unnumbered);
    const statements: BatchItem<'sqlite'>[] = [...draft, ...(extras.alongside?.(id, wroteInvoice(ctx, id, now)) ?? [])];
    const results = await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    const [written] = results[number.before.length] as { number: string }[];
    return written ? { row: { ...row, number: written.number }, lines } : undefined;
  }, extras.onlyIf, INVOICE_SEQUENCE, unnumberedId);
}

export async function getInvoice(ctx: WorkspaceContext, id: string): Promise<InvoiceWithLines> {
  const [rows, lines] = await ctx.db.batch([
    ctx.db.select().from(invoices).where(and(eq(invoices.id, id), inWorkspace(ctx, invoices))),
    ctx.db.select().from(invoiceLineItems).where(eq(invoiceLineItems.invoiceId, id)).orderBy(asc(invoiceLineItems.position)),
  ]);
  const row = rows[0];
  if (!row) throw notFound('Invoice');
  return { row, lines };
}

/**
 * An invoice with its lines, the client it bills and its workspace, in one D1 round trip: what
 * sending it (the snapshots) and rendering it (the document) both need.
 */
export async function getInvoiceWithParties(ctx: WorkspaceContext, id: string) {
  const found = await readInvoiceWithParties(ctx.db, and(eq(invoices.id, id), inWorkspace(ctx, invoices))!);
  if (!found) throw notFound('Invoice');
  return found;
}

/**
 * The one invoice `which` selects, with its lines, client and workspace, read in one batch (each
 * found through the invoice, so the caller need not know its id or workspace); undefined if none.
 */
export async function readInvoiceWithParties(db: Db, which: SQL) {
  return invoiceWithParties(await db.batch(invoiceWithPartiesQueries(db, which)));
}

/** The reads of readInvoiceWithParties, for a caller that sends them in a batch of its own. */
export function invoiceWithPartiesQueries(db: Db, which: SQL) {
  const theInvoice = (column: typeof invoices.id | typeof invoices.clientId | typeof invoices.workspaceId) =>
    db.select({ id: column }).from(invoices).where(which);
  return [
    db.select().from(invoices).where(which),
    // Ordered as the (invoice_id, position) index is, so SQLite walks it instead of sorting the lines again.
    db.select().from(invoiceLineItems).where(inArray(invoiceLineItems.invoiceId, theInvoice(invoices.id))).orderBy(asc(invoiceLineItems.invoiceId), asc(invoiceLineItems.position)),
    db.select().from(workspaces).where(inArray(workspaces.id, theInvoice(invoices.workspaceId))),
    db.select().from(clients).where(inArray(clients.id, theInvoice(invoices.clientId))),
  ] as const;
}

/** The invoice, its lines, client and workspace from the answers to invoiceWithPartiesQueries. */
export function invoiceWithParties([rows, lines, [workspace], [client]]: readonly [
  InvoiceRow[], (typeof invoiceLineItems.$inferSelect)[], (typeof workspaces.$inferSelect)[], (typeof clients.$inferSelect)[],
]) {
  const row = rows[0];
  // The client and the workspace stay while an invoice references them (foreign keys that restrict).
  if (!row || !workspace || !client) return undefined;
  return { invoice: { row, lines } as InvoiceWithLines, client, workspace };
}

// The list's statement, one shape for each set of filters sent (the SQL text worked out once), its
// rows mapped by tableRows. Each filter takes its value through a placeholder of its own name;
// `today` is the overdue filter's (open, and due before the workspace's today).
type ListFilter = 'today' | 'status' | 'clientId' | 'projectId' | 'recurringInvoiceId' | 'issuedFrom' | 'issuedTo' | 'beforeId';
const LIST_CONDITIONS: Record<ListFilter, () => SQL> = {
  today: () => and(eq(invoices.status, 'open'), lt(invoices.dueDate, placeholder('today')))!,
  status: () => eq(invoices.status, placeholder('status')),
  clientId: () => eq(invoices.clientId, placeholder('clientId')),
  projectId: () => eq(invoices.projectId, placeholder('projectId')),
  recurringInvoiceId: () => eq(invoices.recurringInvoiceId, placeholder('recurringInvoiceId')),
  issuedFrom: () => gte(invoices.issueDate, placeholder('issuedFrom')),
  issuedTo: () => lte(invoices.issueDate, placeholder('issuedTo')),
  beforeId: () => lt(invoices.id, placeholder('beforeId')),
};
const listShape = statementShapes((db, filters: string) =>
  db
    .select()
    .from(invoices)
    .where(and(eq(invoices.workspaceId, placeholder('workspaceId')), ...(filters ? filters.split(',') : []).map((name) => LIST_CONDITIONS[name as ListFilter]())))
    .orderBy(desc(invoices.id))
    .limit(placeholder('limit')));
const invoiceRows = tableRows(invoices);

export async function listInvoices(ctx: WorkspaceContext, filter: InvoiceFilter & { beforeId?: string }): Promise<InvoiceRow[]> {
  assertOrderedRange('issued_from', filter.issued_from, 'issued_to', filter.issued_to);
  const overdue = filter.status === 'overdue';
  const values: Record<ListFilter, string | undefined> = {
    today: overdue ? todayIn(ctx.timeZone) : undefined,
    status: overdue ? undefined : filter.status,
    clientId: filter.client_id,
    projectId: filter.project_id,
    recurringInvoiceId: filter.recurring_invoice_id,
    issuedFrom: filter.issued_from,
    issuedTo: filter.issued_to,
    beforeId: filter.beforeId,
  };
  const filters = (Object.keys(values) as ListFilter[]).filter((name) => values[name] !== undefined);
  const statement = listShape(filters.join(',')).on(clientOf(ctx.db), { ...values, workspaceId: ctx.workspaceId, limit: filter.limit + 1 });
  return invoiceRows(await statement.raw());
}

async function draftInvoice(ctx: WorkspaceContext, id: string): Promise<InvoiceWithLines> {
  const invoice = await getInvoice(ctx, id);
  if (invoice.row.status !== 'draft') throw invalidState(`Invoice ${invoice.row.number} is ${invoice.row.status}; only drafts can be changed or deleted.`);
  return invoice;
}

/** The guard every change of a draft is written under: still a draft, and unchanged since it was read. */
const unchangedDraft = (ctx: WorkspaceContext, before: InvoiceRow) =>
  and(eq(invoices.id, before.id), inWorkspace(ctx, invoices), eq(invoices.status, 'draft'), eq(invoices.updatedAt, before.updatedAt));

export async function updateInvoice(ctx: ServiceContext, id: string, input: UpdateInvoiceInput): Promise<InvoiceWithLines> {
  const newClient = input.client_id ? await referencedClient(ctx, input.client_id) : undefined;
  if (input.project_id) await referencedProject(ctx, input.project_id);
  if (input.currency) await assertConvertible(ctx.env, input.currency);
  return retryOnRace('invoice', async () => {
    const before = await draftInvoice(ctx, id);
    const replaced = await recomputed(ctx, before, input, newClient);
    if (replaced) assertDocumentTotal(replaced.columns.total);
    const set: Partial<InvoiceRow> = { updatedAt: nowIso(), ...replaced?.columns };
    // BT-10 is the buyer's own routing reference: moved to another client, a draft quotes that
    // client's, unless the request names one.
    if (input.buyer_reference !== undefined) set.buyerReference = input.buyer_reference;
    else if (newClient && newClient.id !== before.row.clientId) set.buyerReference = newClient.buyerReference;
    if (input.purchase_order !== undefined) set.purchaseOrder = input.purchase_order;
    Object.assign(set, serviceColumns(input));
    if (input.client_id !== undefined) set.clientId = input.client_id;
    if (input.project_id !== undefined) set.projectId = input.project_id;
    if (input.currency !== undefined) set.currency = input.currency;
    if (input.number !== undefined) set.number = input.number;
    if (input.notes !== undefined) set.notes = input.notes;
    if (input.locale !== undefined) set.locale = input.locale;
    if (input.issue_date !== undefined) set.issueDate = input.issue_date;
    if (input.due_date !== undefined) set.dueDate = input.due_date;
    const after = { row: { ...before.row, ...set }, lines: input.line_items && replaced ? replaced.rows : before.lines };
    if (after.row.dueDate < after.row.issueDate) throw invalidField('due_date', 'due_date must not be before issue_date.');
    // Either side may change alone: the project kept must belong to the client kept, and the other way round.
    if (input.client_id !== undefined || input.project_id !== undefined) await assertProjectOfClient(ctx, after.row.projectId, after.row.clientId);

    const written = wroteInvoice(ctx, id, after.row.updatedAt);
    const [updated] = await ctx.db.batch([
      ctx.db
        .update(invoices)
        .set(set)
        .where(and(unchangedDraft(ctx, before.row), input.number !== undefined ? numberIsFree(ctx, input.number, id) : undefined)),
      recordEvent(ctx, 'invoice.updated', invoiceObject(ctx, after), {
        previous: changedAttributes(invoiceObject(ctx, before), invoiceObject(ctx, after)),
        ifChanged: true,
      }),
      ...(input.line_items && replaced
        ? [ctx.db.delete(invoiceLineItems).where(and(eq(invoiceLineItems.invoiceId, id), written)), ...insertLineStatements(ctx.db, replaced.rows, written)]
        : []),
    ]);
    if (changedRows(updated) > 0) return after;
    // Nothing written: either another request changed the draft (run again), or the number is taken.
    const now = await getInvoice(ctx, id);
    if (input.number !== undefined && now.row.updatedAt === before.row.updatedAt && now.row.status === 'draft') throw numberTaken(input.number);
    return undefined;
  });
}

/**
 * A draft's lines and amounts again when a change touches what they are computed from (its lines,
 * its discount, its exemption); null when it does not. Kept lines keep their categories as
 * resolved, and the invoice keeps its rounding mode.
 */
async function recomputed(ctx: WorkspaceContext, before: InvoiceWithLines, input: UpdateInvoiceInput, newClient?: typeof clients.$inferSelect) {
  const touches = input.line_items !== undefined || input.discount !== undefined || input.tax_exemption_reason !== undefined || input.tax_exemption_code !== undefined;
  if (!touches) return null;
  const content: DocumentContent = {
    line_items: input.line_items ?? before.lines.map(lineInputOf),
    discount: input.discount !== undefined ? input.discount : before.row.discount ? JSON.parse(before.row.discount) : null,
    tax_exemption_reason: input.tax_exemption_reason !== undefined ? input.tax_exemption_reason : before.row.taxExemptionReason,
    tax_exemption_code: input.tax_exemption_code !== undefined ? input.tax_exemption_code : before.row.taxExemptionCode,
  };
  // New lines take their default tax from the workspace and the client (the one the draft moves to, if
  // any); kept lines carry theirs, and a small business's E group its note.
  const client = newClient ?? (await referencedClient(ctx, before.row.clientId));
  return buildLines(before.row.id, content, documentSettingsFor(await getWorkspace(ctx), client, before.row.taxRounding));
}

export async function deleteInvoice(ctx: ServiceContext, id: string): Promise<void> {
  await retryOnRace('invoice', async () => {
    const before = await draftInvoice(ctx, id);
    // Its time entries and expenses are released by their foreign keys (ON DELETE SET NULL); the
    // quote it was converted from, if any, by the statements after the delete.
    // Its number, the newest of the sequence, goes back to it (§20; guarded in SQL on the delete).
    const [deleted] = await ctx.db.batch([
      ctx.db.delete(invoices).where(unchangedDraft(ctx, before.row)),
      recordEvent(ctx, 'invoice.deleted', invoiceObject(ctx, before), { ifChanged: true }),
      ...(await draftDeletedStatements(ctx, before.row)),
      ...(isUnnumbered(before.row) ? [] : [giveBackNumber(ctx, before.row)]),
    ]);
    return changedRows(deleted) > 0 ? true : undefined;
  });
}
