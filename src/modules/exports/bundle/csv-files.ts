// The bundle's five CSV files. Four are the records behind the reports of the period (modules/reports/rows.ts,
// bookRows: one read), one row per document, each with its own amounts in its own currency and, in the workspace's
// currency, its share of the converted sums the reports show, so the rows add up to the reports to the cent:
// Σ invoices' converted_net − Σ credit notes' = the profit and loss's accrual income and the VAT report's taxable
// amounts, Σ their converted_tax its output tax; Σ payments.csv's converted_net (refunds negative) the cash income;
// Σ expenses' converted_net the expenses, Σ converted_input_tax the input tax. time_entries.csv is read a page at a
// time (pages.ts). A voided invoice counts in no figure, so it has no row (its PDF is in the ZIP).
import type { WorkspaceContext } from '../../../lib/context';
import { clientOf } from '../../../lib/db';
import { divRoundHalfAwayFromZero } from '../../../lib/money';
import { type BookRows, bookRows } from '../../reports/rows';
import { keyset, type Period, type Row, walk } from '../pages';
import type { ExportKind } from '../schemas';
import { type Cell, csvFile, money, moneyHeadings } from './csv';

const CLIENT = `coalesce(json_extract(i.bill_to, '$.company'), json_extract(i.bill_to, '$.name'), '')`;

const str = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** A document's tax groups in one field: `category:rate:taxable:tax` in minor units, `;` between groups. */
const groupsField = (groups: { category: string; rate: number; taxable_amount: number; tax_amount: number }[] | null) =>
  groups?.map((g) => `${g.category}:${g.rate}:${g.taxable_amount}:${g.tax_amount}`).join(';') ?? null;

/** Who each invoice and credit note of the period was for, and a credit note's invoice number: the rows name them. */
async function partiesOf(ctx: WorkspaceContext, period: Period): Promise<Map<string, { client: string; invoiceNumber?: string }>> {
  const d1 = clientOf(ctx.db);
  const [invoices, notes] = await d1.batch([
    d1.prepare(`SELECT i.id AS id, ${CLIENT} AS client FROM invoices i WHERE i.workspace_id = ?1 AND i.issue_date BETWEEN ?2 AND ?3`).bind(ctx.workspaceId, period.from, period.to),
    d1.prepare(`SELECT c.id AS id, ${CLIENT} AS client, i.number AS invoice_number FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id
      WHERE c.workspace_id = ?1 AND c.issue_date BETWEEN ?2 AND ?3`).bind(ctx.workspaceId, period.from, period.to),
  ]);
  const parties = new Map<string, { client: string; invoiceNumber?: string }>();
  for (const r of invoices!.results as { id: string; client: string }[]) parties.set(r.id, { client: r.client });
  for (const r of notes!.results as { id: string; client: string; invoice_number: string }[]) parties.set(r.id, { client: r.client, invoiceNumber: r.invoice_number });
  return parties;
}

type Books = { rows: BookRows; parties: Map<string, { client: string; invoiceNumber?: string }> };

const CONVERTED = (name: string) => moneyHeadings(`converted_${name}`);

async function* once(lines: Cell[][]): AsyncGenerator<Cell[][]> {
  yield lines;
}

function invoicesCsv({ rows, parties }: Books) {
  const to = rows.currency;
  return csvFile(
    ['id', 'number', 'issue_date', 'client_id', 'client_name', 'currency', ...moneyHeadings('net'), ...moneyHeadings('tax'), ...moneyHeadings('total'), 'tax_groups',
      'converted_currency', ...CONVERTED('net'), ...CONVERTED('tax'), ...CONVERTED('total')],
    once(rows.invoices.map((r) => [
      r.id, r.number, r.issue_date, r.client_id, parties.get(r.id)?.client ?? null, r.currency, ...money(r.net, r.currency), ...money(r.tax, r.currency), ...money(r.total, r.currency),
      groupsField(r.tax_breakdown), to, ...money(r.converted.net, to), ...money(r.converted.tax, to), ...money(r.converted.total, to),
    ])),
    (row: Cell[]) => [row],
  );
}

function creditNotesCsv({ rows, parties }: Books) {
  const to = rows.currency;
  return csvFile(
    ['id', 'number', 'invoice_id', 'invoice_number', 'issue_date', 'client_id', 'client_name', 'currency', ...moneyHeadings('net'), ...moneyHeadings('tax'), ...moneyHeadings('total'),
      'tax_groups', 'converted_currency', ...CONVERTED('net'), ...CONVERTED('tax'), ...CONVERTED('total')],
    once(rows.credit_notes.map((r) => [
      r.id, r.number, r.invoice_id, parties.get(r.id)?.invoiceNumber ?? null, r.issue_date, r.client_id, parties.get(r.id)?.client ?? null, r.currency,
      ...money(r.net, r.currency), ...money(r.tax, r.currency), ...money(r.total, r.currency), groupsField(r.tax_breakdown),
      to, ...money(r.converted.net, to), ...money(r.converted.tax, to), ...money(r.converted.total, to),
    ])),
    (row: Cell[]) => [row],
  );
}

// A refund is a row of its own, its amounts negative, so each column sums to what was received net of refunds.
function paymentsCsv({ rows }: Books) {
  const to = rows.currency;
  return csvFile(
    ['type', 'id', 'payment_id', 'invoice_id', 'date', 'currency', ...moneyHeadings('amount'), ...moneyHeadings('tax'), ...moneyHeadings('net'), 'method', 'reference',
      'converted_currency', ...CONVERTED('amount'), ...CONVERTED('tax'), ...CONVERTED('net'), ...CONVERTED('fx_gain_loss')],
    once([
      ...rows.payments.map((r): Cell[] => [
        'payment', r.id, r.id, r.invoice_id, r.paid_on, r.currency, ...money(r.amount, r.currency), ...money(r.tax, r.currency), ...money(r.net, r.currency), r.method, r.reference,
        to, ...money(r.converted.amount, to), ...money(r.converted.tax, to), ...money(r.converted.net, to), ...money(r.fx_gain_loss, to),
      ]),
      ...rows.refunds.map((r): Cell[] => [
        'refund', r.id, r.payment_id, r.invoice_id, r.refunded_on, r.currency, ...money(-r.amount, r.currency), ...money(-r.tax, r.currency), ...money(-r.net, r.currency), null, null,
        to, ...money(-r.converted.amount, to), ...money(-r.converted.tax, to), ...money(-r.converted.net, to), ...money(0, to),
      ]),
    ]),
    (row: Cell[]) => [row],
  );
}

// input_tax is empty for an expense typed in by hand: it has none (§21).
function expensesCsv({ rows }: Books) {
  const to = rows.currency;
  const maybe = (minor: number | null, currency: string): Cell[] => (minor === null ? [null, null] : money(minor, currency));
  return csvFile(
    ['id', 'incurred_on', 'category', 'vendor', 'description', 'project_id', 'currency', ...moneyHeadings('amount'), ...moneyHeadings('net'), ...moneyHeadings('input_tax'), 'tax_groups',
      'converted_currency', ...CONVERTED('amount'), ...CONVERTED('net'), ...CONVERTED('input_tax')],
    once(rows.expenses.map((r) => [
      r.id, r.incurred_on, r.category, r.vendor, r.description, r.project_id, r.currency, ...money(r.amount, r.currency), ...money(r.net, r.currency), ...maybe(r.input_tax, r.currency),
      groupsField(r.tax_breakdown), to, ...money(r.converted.amount, to), ...money(r.converted.net, to), ...maybe(r.converted.input_tax, to),
    ])),
    (row: Cell[]) => [row],
  );
}

// Finished entries only: a running timer has no duration yet.
const TIME = `SELECT t.spent_date, t.id, t.user_id, u.name, t.project_id, p.name, t.task, t.duration_seconds, t.billable, t.currency, t.rate, t.invoice_id
  FROM time_entries t JOIN users u ON u.id = t.user_id JOIN projects p ON p.id = t.project_id
  WHERE t.workspace_id = ?1 AND ${keyset('t.spent_date', 't.id')} AND t.duration_seconds IS NOT NULL ORDER BY t.spent_date, t.id LIMIT ?6`;

/** Hours with four decimals, half away from zero. */
const hours = (seconds: number) => {
  const tenThousandths = Number(divRoundHalfAwayFromZero(BigInt(seconds) * 10_000n, 3600n));
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
};

function timeCsv(ctx: WorkspaceContext, period: Period) {
  return csvFile(
    ['id', 'spent_date', 'user_id', 'user_name', 'project_id', 'project_name', 'task', 'duration_seconds', 'hours', 'billable', 'currency', ...moneyHeadings('rate'), ...moneyHeadings('amount'), 'invoice_id'],
    walk(ctx, TIME, period),
    (r: Row) => {
      const [seconds, currency, rate] = [r[7] as number, r[9] as string, r[10] as number | null];
      // What the time is worth at its rate per hour, half away from zero; none without a rate.
      const amount = rate === null ? null : Number(divRoundHalfAwayFromZero(BigInt(seconds) * BigInt(rate), 3600n));
      return [[
        str(r[1]), str(r[0]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), str(r[6]), seconds, hours(seconds), Boolean(r[8]), currency,
        ...(rate === null ? [null, null] : money(rate, currency)), ...(amount === null ? [null, null] : money(amount, currency)), str(r[11]),
      ]];
    },
  );
}

const BOOK_FILES = { invoices: ['invoices.csv', invoicesCsv], credit_notes: ['credit_notes.csv', creditNotesCsv], payments: ['payments.csv', paymentsCsv], expenses: ['expenses.csv', expensesCsv] } as const;

/** The bundle's CSVs of `kinds`, each a file name and its bytes as they are made; the reports' rows read once for all. */
export async function csvFiles(ctx: WorkspaceContext, period: Period, kinds: ExportKind[]): Promise<{ name: string; bytes: AsyncIterable<Uint8Array> }[]> {
  const booked = kinds.filter((kind): kind is keyof typeof BOOK_FILES => kind in BOOK_FILES);
  // The rows and who they name are two reads of the period, made side by side.
  const books: Books | null = booked.length ? await Promise.all([bookRows(ctx, period), partiesOf(ctx, period)]).then(([rows, parties]) => ({ rows, parties })) : null;
  return kinds.map((kind) => (kind === 'time' ? { name: 'time_entries.csv', bytes: timeCsv(ctx, period) } : { name: BOOK_FILES[kind][0], bytes: BOOK_FILES[kind][1](books!) }));
}
