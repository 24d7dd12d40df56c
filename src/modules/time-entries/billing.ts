// An invoice made from unbilled time (§19): the client's billable, stopped, not yet invoiced entries
// in a period, one line per group and rate, and (unless left out) its billable, not yet invoiced
// expenses, one line each. The entries and expenses are stamped with the invoice in the invoice's
// own batch, by set-based UPDATEs over the same conditions that selected them (no id lists: D1
// binds at most 100 parameters), and the invoice is written only if those conditions still select
// exactly what was read: two requests racing over the same time bill it once. The lines' words and
// dates are in the language the invoice will be read in (§20): its client's, else the workspace's.
import { and, eq, gte, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { clients, expenses, projects, timeEntries, users, workspaces } from '../../db/schema';
import { ApiError, invalidField, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { divRoundHalfAwayFromZero, formatMoney, lineAmount, MAX_MINOR_AMOUNT } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { labelsFor } from '../documents/labels/language';
import { MAX_LINE_ITEMS } from '../invoices/schemas';
import { createInvoice } from '../invoices/service';
import { issuerOf } from '../workspaces/settings';
import type { InvoiceWithLines } from '../invoices/serialize';
import { getRatesSnapshot } from '../rates/refresh';
import { convertAtSnapshot, type RatesSnapshot } from '../rates/snapshot';
import { projectRounding, roundDuration, roundDurationSql } from './rounding';
import type { InvoiceFromTimeInput } from './schemas';

/**
 * The ids of the client's projects (or of the ones named): what the entries and expenses to bill
 * are looked up by, through their (workspace_id, project_id) indexes, so a request reads the
 * client's rows and not every row of the workspace.
 */
function clientProjectIds(ctx: WorkspaceContext, input: InvoiceFromTimeInput): SQL {
  return sql`SELECT ${projects.id} FROM ${projects} WHERE ${projects.workspaceId} = ${ctx.workspaceId} AND ${projects.clientId} = ${input.client_id}
    ${input.project_ids ? sql`AND ${inArray(projects.id, input.project_ids)}` : sql``}`;
}

/**
 * The entries to bill, as one SQL condition on time_entries (usable in a SELECT, in the UPDATE
 * that stamps them and in the guard): billable, stopped, not invoiced, of the client's projects
 * (or the ones named), in the period, billing more than 0 s after the project's rounding.
 */
function toBill(ctx: WorkspaceContext, input: InvoiceFromTimeInput): SQL {
  const billsTime = sql`EXISTS (SELECT 1 FROM ${projects} WHERE ${projects.id} = ${timeEntries.projectId}
    AND ${roundDurationSql(timeEntries.durationSeconds, projects.timeRoundingMinutes, projects.timeRoundingMode)} > 0)`;
  return and(
    inWorkspace(ctx, timeEntries),
    sql`${timeEntries.projectId} IN (${clientProjectIds(ctx, input)})`,
    isNull(timeEntries.invoiceId),
    isNotNull(timeEntries.durationSeconds),
    eq(timeEntries.billable, true),
    input.from ? gte(timeEntries.spentDate, input.from) : undefined,
    input.to ? lte(timeEntries.spentDate, input.to) : undefined,
    billsTime,
  )!;
}

/** The expenses to bill, as one SQL condition on expenses: billable, not invoiced, of the client's projects (or the ones named), in the period. */
function expensesToBill(ctx: WorkspaceContext, input: InvoiceFromTimeInput): SQL {
  return and(
    inWorkspace(ctx, expenses),
    isNull(expenses.invoiceId),
    eq(expenses.billable, true),
    input.from ? gte(expenses.incurredOn, input.from) : undefined,
    input.to ? lte(expenses.incurredOn, input.to) : undefined,
    sql`${expenses.projectId} IN (${clientProjectIds(ctx, input)})`,
  )!;
}

/** A fingerprint of what `toBill` selects: any entry billed, added, removed or edited since changes it. */
const fingerprintOf = (condition: SQL) =>
  sql`(SELECT count(*) || '|' || coalesce(max(${timeEntries.updatedAt}), '') || '|' || coalesce(max(${timeEntries.id}), '') || '|' || total(${timeEntries.durationSeconds}) || '|' || total(coalesce(${timeEntries.rate}, -1)) FROM ${timeEntries} WHERE ${condition})`;

/** The same for the expenses `expensesToBill` selects (the empty string when they are left out). */
const expenseFingerprintOf = (condition: SQL | null) =>
  condition
    ? sql`(SELECT count(*) || '|' || coalesce(max(${expenses.updatedAt}), '') || '|' || coalesce(max(${expenses.id}), '') || '|' || total(${expenses.amount}) FROM ${expenses} WHERE ${condition})`
    : sql`''`;

/** How a line names its days in `locale`: one day, or the first to the last as the locale writes a range. */
function daysIn(locale: string) {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const day = (date: string) => new Date(`${date}T00:00:00Z`);
  return (first: string, last = first) => (first === last ? format.format(day(first)) : format.formatRange(day(first), day(last)));
}

type Words = { locale: string; labels: ReturnType<typeof labelsFor>['lines']; days: ReturnType<typeof daysIn> };

/** One line per expense: its amount in the invoice's currency, the original named when converted. */
function expenseLine(expense: typeof expenses.$inferSelect, snapshot: RatesSnapshot | null, currency: string, tax: LineTaxInput, words: Words) {
  const unitAmount = convertAtSnapshot(snapshot, expense.amount, expense.currency, currency);
  const category = words.labels.expenseCategory[expense.category as keyof Words['labels']['expenseCategory']] ?? expense.category;
  const what = [expense.description ?? category, expense.vendor && `(${expense.vendor})`].filter(Boolean).join(' ');
  const original = expense.currency === currency ? '' : ` (${formatMoney(expense.amount, expense.currency, words.locale)})`;
  return {
    description: `${words.labels.expense(what, words.days(expense.incurredOn))}${original}`.slice(0, 500), quantity: 1, unit: 'C62' as const,
    unit_amount: unitAmount, discount_percent: 0, ...tax,
  };
}

type LineTaxInput = Pick<InvoiceFromTimeInput, 'tax_rate' | 'tax_category'>;

type Entry = {
  id: string; projectId: string; projectName: string; userId: string; userName: string | null; task: string | null; spentDate: string;
  seconds: number; rate: number | null; currency: string;
};

const GROUP_KEYS: Record<InvoiceFromTimeInput['group_by'], (e: Entry) => string> = {
  project: (e) => e.projectId,
  task: (e) => `${e.projectId}\u0000${e.task ?? ''}`,
  user: (e) => e.userId,
  entry: (e) => e.id,
};

function describe(groupBy: InvoiceFromTimeInput['group_by'], entries: Entry[], { labels, days }: Words): string {
  const first = entries[0]!;
  const dates = entries.map((e) => e.spentDate).sort();
  const projectNames = [...new Set(entries.map((e) => e.projectName))].join(', ');
  const what = {
    project: first.projectName,
    task: labels.taskOf(first.task ?? labels.time, first.projectName),
    user: labels.userOn(first.userName ?? labels.time, projectNames),
    entry: [first.projectName, first.task, first.userName].filter(Boolean).join(', '),
  }[groupBy];
  return labels.work(what, days(dates[0]!, dates.at(-1)!));
}

export async function createInvoiceFromTime(ctx: ServiceContext, input: InvoiceFromTimeInput): Promise<InvoiceWithLines> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const invoice = await billOnce(ctx, input).catch((err: unknown) => {
      // The guard did not hold: another request billed or changed some of this time meanwhile. Read again.
      if (err instanceof ApiError && err.code === 'conflict') return undefined;
      throw err;
    });
    if (invoice) return invoice;
  }
  throw new ApiError('conflict', 'The time to bill was changed by another request at the same time; try again.');
}

async function billOnce(ctx: ServiceContext, input: InvoiceFromTimeInput): Promise<InvoiceWithLines | undefined> {
  const condition = toBill(ctx, input);
  const expenseCondition = input.include_expenses ? expensesToBill(ctx, input) : null;
  const fingerprint = sql`${fingerprintOf(condition)} || '#' || ${expenseFingerprintOf(expenseCondition)}`;
  // One round trip: the client, the workspace, the named projects, the entries, the expenses and their fingerprint.
  const [clientRows, [workspace], projectRows, rows, expenseRows] = await ctx.db.batch([
    ctx.db
      .select({ client: clients, fingerprint: sql<string>`${fingerprint}` })
      .from(clients)
      .where(and(eq(clients.id, input.client_id), inWorkspace(ctx, clients)))
      .limit(1),
    ctx.db.select().from(workspaces).where(eq(workspaces.id, ctx.workspaceId)),
    // The client's projects (or the named ones), apart from the entries: joined to them, SQLite would
    // walk every project of the workspace and its entries.
    ctx.db
      .select({ id: projects.id, name: projects.name, timeRoundingMinutes: projects.timeRoundingMinutes, timeRoundingMode: projects.timeRoundingMode })
      .from(projects)
      .where(and(inWorkspace(ctx, projects), eq(projects.clientId, input.client_id), input.project_ids ? inArray(projects.id, input.project_ids) : undefined)),
    ctx.db
      .select({
        id: timeEntries.id, projectId: timeEntries.projectId, userId: timeEntries.userId, userName: users.name,
        task: timeEntries.task, spentDate: timeEntries.spentDate, duration: timeEntries.durationSeconds, rate: timeEntries.rate, currency: timeEntries.currency,
      })
      .from(timeEntries)
      .leftJoin(users, eq(users.id, timeEntries.userId))
      .where(condition),
    ctx.db.select().from(expenses).where(expenseCondition ?? sql`0`),
  ]);
  // Put in order here: an ORDER BY spent_date would have SQLite walk the (workspace_id, spent_date)
  // index over every entry of the workspace rather than look up the client's projects' entries.
  const byDateThenId = (a: { date: string; id: string }, b: { date: string; id: string }) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1);
  rows.sort((a, b) => byDateThenId({ date: a.spentDate, id: a.id }, { date: b.spentDate, id: b.id }));
  expenseRows.sort((a, b) => byDateThenId({ date: a.incurredOn, id: a.id }, { date: b.incurredOn, id: b.id }));
  const client = clientRows[0]?.client;
  if (!client) throw invalidField('client_id', 'No such client.');
  if (!workspace) throw notFound('Workspace');
  const unknown = (input.project_ids ?? []).filter((id) => !projectRows.some((p) => p.id === id));
  if (unknown.length) throw invalidField('project_ids', `Not projects of this client: ${unknown.join(', ')}.`);
  if (!rows.length && !expenseRows.length) {
    throw invalidField('client_id', `Nothing to bill: this client has no billable, uninvoiced time${expenseCondition ? ' or expenses' : ''} in that period.`);
  }

  const projectsById = new Map(projectRows.map((p) => [p.id, p]));
  const entries: Entry[] = rows.map((r) => {
    const project = projectsById.get(r.projectId)!;
    return { ...r, projectName: project.name, seconds: roundDuration(r.duration!, projectRounding(project)) };
  });
  const rateless = entries.find((e) => e.rate === null);
  if (rateless) throw invalidField('project_ids', `Project "${rateless.projectName}" (${rateless.projectId}) has time with no hourly rate: set the project's hourly_rate or the entries' rate.`);

  // Every line's tax as the request names it; none named, each line takes the client's treatment (§20).
  const tax: LineTaxInput = { tax_rate: input.tax_rate, tax_category: input.tax_category };
  if (input.tax_rate && issuerOf(workspace).small_business) {
    throw invalidField('tax_rate', 'The issuer is a small business (issuer.small_business), which charges no VAT: leave tax_rate out or at 0.');
  }

  // One line per group and rate (a rate in another currency is converted into the invoice's).
  const currency = client.currency;
  const locale = client.locale ?? workspace.locale;
  const words: Words = { locale, labels: labelsFor(locale).lines, days: daysIn(locale) };
  const snapshot = [...entries, ...expenseRows].some((e) => e.currency !== currency) ? await getRatesSnapshot(ctx.env) : null;
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const key = `${GROUP_KEYS[input.group_by](e)}\u0000${e.currency}\u0000${e.rate}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  if (groups.size + expenseRows.length > MAX_LINE_ITEMS) {
    const expenseLines = expenseRows.length ? ` and ${expenseRows.length} for expenses` : '';
    throw invalidField('group_by', `That would be ${groups.size} lines for time${expenseLines}; an invoice has at most ${MAX_LINE_ITEMS}. Group by project, task or user, or bill a shorter period.`);
  }
  const timeLines = [...groups.values()].map((group) => {
    const first = group[0]!;
    const seconds = group.reduce((sum, e) => sum + e.seconds, 0);
    // Hours to 3 decimals, half up (all positive): what the client reads is what is charged. A
    // line's quantity is more than 0, so a group of under 1.8 s bills 0.001 h.
    const quantityMilli = Math.max(1, Number(divRoundHalfAwayFromZero(BigInt(seconds) * 1000n, 3600n)));
    const unitAmount = convertAtSnapshot(snapshot, first.rate!, first.currency, currency);
    const converted = first.currency === currency ? '' : ` (${words.labels.atRate(formatMoney(first.rate!, first.currency, locale))})`;
    // Billed in hours (UN/ECE code HUR), taxed as the request says, else as the client's treatment gives.
    return {
      description: `${describe(input.group_by, group, words)}${converted}`.slice(0, 500), quantity: quantityMilli / 1000, unit: 'HUR' as const,
      unit_amount: unitAmount, discount_percent: 0, ...tax,
    };
  });

  const lineItems = [...timeLines, ...expenseRows.map((expense) => expenseLine(expense, snapshot, currency, tax, words))];
  for (const line of lineItems) {
    if (lineAmount(Math.round(line.quantity * 1000), line.unit_amount) > MAX_MINOR_AMOUNT) throw invalidField('group_by', 'A line would exceed 10^13 minor units; bill a shorter period.');
  }

  const now = nowIso();
  const stillTheSame = sql`${fingerprint} = ${clientRows[0]!.fingerprint}`;
  const projectIds = new Set([...entries.map((e) => e.projectId), ...expenseRows.map((e) => e.projectId!)]);
  // §20: the time billed was spent from its first to its last day (in date order above): the date or period of supply.
  const [first, last] = [rows[0]?.spentDate, rows.at(-1)?.spentDate];
  const supply = first && last ? (first === last ? { service_date: first } : { service_period: { start: first, end: last } }) : {};
  return createInvoice(
    ctx,
    {
      client_id: client.id, currency, issue_date: input.issue_date, due_date: input.due_date, notes: input.notes,
      project_id: projectIds.size === 1 ? [...projectIds][0] : undefined,
      line_items: lineItems,
      ...supply,
    },
    {
      // Read above; the project, if one, is the client's (the entries and expenses were chosen so).
      parties: { client, workspace },
      onlyIf: stillTheSame,
      alongside: (invoiceId, written) => [
        ctx.db.update(timeEntries).set({ invoiceId, updatedAt: now }).where(and(condition, written)),
        ...(expenseCondition ? [ctx.db.update(expenses).set({ invoiceId, updatedAt: now }).where(and(expenseCondition, written))] : []),
      ],
    },
  );
}
