// The bundle's five CSV files, each read a page at a time (pages.ts) and written as it is read. Their rows add up
// to the period's figures: invoices.csv and credit_notes.csv have a row per document and tax group (its
// category, rate, taxable amount and tax, as the document's own breakdown has them), so the sums by category
// and rate are the VAT figures and the sum of `taxable_amount` over the invoices not void, less the credit notes',
// is the income billed; payments.csv has a row per payment and per refund (negative), with the tax share of
// each (§5) and what is left of it, so `net` sums to the cash received net of tax; expenses.csv says what of each
// expense was input tax (none for one typed in by hand, §21).
import { divRoundHalfAwayFromZero, taxShare } from '../../../lib/money';
import type { WorkspaceContext } from '../../../lib/context';
import { groupsOf } from '../datev/bookings';
import type { TaxGroup } from '../datev/records';
import { keyset, type Period, type Row, walk } from '../pages';
import type { ExportKind } from '../schemas';
import { type Cell, csvFile, money, moneyHeadings } from './csv';

const CLIENT = `coalesce(json_extract(i.bill_to, '$.company'), json_extract(i.bill_to, '$.name'), '')`;

const str = (value: unknown) => (value === null || value === undefined ? null : String(value));
const groups = (json: unknown, taxable: number, tax: number) => groupsOf({ breakdown: typeof json === 'string' ? (JSON.parse(json) as TaxGroup[]) : null, taxableAmount: taxable, tax });

const GROUP_HEADINGS = ['tax_category', 'tax_rate', ...moneyHeadings('taxable_amount'), ...moneyHeadings('tax_amount'), ...moneyHeadings('total')];
const groupCells = (g: TaxGroup, currency: string): Cell[] => [
  g.category, g.rate, ...money(g.taxable_amount, currency), ...money(g.tax_amount, currency), ...money(g.taxable_amount + g.tax_amount, currency),
];

const INVOICES = `SELECT i.issue_date, i.id, i.number, i.status, i.due_date, i.client_id, ${CLIENT}, json_extract(i.bill_to, '$.vat_id'),
  i.currency, i.subtotal, i.tax, i.tax_breakdown
  FROM invoices i WHERE i.workspace_id = ?1 AND ${keyset('i.issue_date', 'i.id')} AND i.status <> 'draft' ORDER BY i.issue_date, i.id LIMIT ?6`;

function invoicesCsv(ctx: WorkspaceContext, period: Period) {
  return csvFile(
    ['id', 'number', 'status', 'issue_date', 'due_date', 'client_id', 'client_name', 'client_vat_id', 'currency', ...GROUP_HEADINGS],
    walk(ctx, INVOICES, period),
    (r: Row) => groups(r[11], r[9] as number, r[10] as number).map((g) => [
      str(r[1]), str(r[2]), str(r[3]), str(r[0]), str(r[4]), str(r[5]), str(r[6]), str(r[7]), str(r[8]), ...groupCells(g, r[8] as string),
    ]),
  );
}

const CREDIT_NOTES = `SELECT c.issue_date, c.id, c.number, c.invoice_id, i.number, ${CLIENT}, c.currency, c.reason,
  c.subtotal - c.discount_total, c.tax, c.tax_breakdown
  FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id
  WHERE c.workspace_id = ?1 AND ${keyset('c.issue_date', 'c.id')} ORDER BY c.issue_date, c.id LIMIT ?6`;

function creditNotesCsv(ctx: WorkspaceContext, period: Period) {
  return csvFile(
    ['id', 'number', 'invoice_id', 'invoice_number', 'issue_date', 'client_name', 'currency', 'reason', ...GROUP_HEADINGS],
    walk(ctx, CREDIT_NOTES, period),
    (r: Row) => groups(r[10], r[8] as number, r[9] as number).map((g) => [
      str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[0]), str(r[5]), str(r[6]), str(r[7]), ...groupCells(g, r[6] as string),
    ]),
  );
}

const PAYMENTS = `SELECT p.paid_on, p.id, p.invoice_id, i.number, ${CLIENT}, p.currency, p.amount, p.tax, i.tax, i.total, p.method, p.source
  FROM payments p JOIN invoices i ON i.id = p.invoice_id
  WHERE p.workspace_id = ?1 AND ${keyset('p.paid_on', 'p.id')} ORDER BY p.paid_on, p.id LIMIT ?6`;

// A refund unless it failed (a pending one has already lowered what was paid, §16), negative.
const REFUNDS = `SELECT r.refunded_on, r.id, r.payment_id, r.invoice_id, i.number, ${CLIENT}, r.currency, r.amount, r.tax, p.amount, p.tax, r.status
  FROM refunds r JOIN invoices i ON i.id = r.invoice_id JOIN payments p ON p.id = r.payment_id
  WHERE r.workspace_id = ?1 AND ${keyset('r.refunded_on', 'r.id')} AND r.status <> 'failed' ORDER BY r.refunded_on, r.id LIMIT ?6`;

const PAYMENT_HEADINGS = [
  'type', 'id', 'payment_id', 'invoice_id', 'invoice_number', 'client_name', 'date', 'currency',
  ...moneyHeadings('amount'), ...moneyHeadings('tax'), ...moneyHeadings('net'), 'method', 'source', 'status',
];

async function* paymentsAndRefunds(ctx: WorkspaceContext, period: Period): AsyncGenerator<Cell[][]> {
  for await (const rows of walk(ctx, PAYMENTS, period)) {
    yield rows.map((r) => {
      const [amount, currency] = [r[6] as number, r[5] as string];
      // The tax share is stored with the payment; a row a trigger has not filled yet gets the same rule (lib/money.ts).
      const tax = (r[7] as number | null) ?? taxShare(amount, r[8] as number, r[9] as number);
      return ['payment', str(r[1]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[0]), currency, ...money(amount, currency), ...money(tax, currency), ...money(amount - tax, currency), str(r[10]), str(r[11]), 'succeeded'];
    });
  }
  for await (const rows of walk(ctx, REFUNDS, period)) {
    yield rows.map((r) => {
      const [amount, currency] = [r[7] as number, r[6] as string];
      const tax = (r[8] as number | null) ?? taxShare(amount, (r[10] as number | null) ?? 0, r[9] as number);
      return ['refund', str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), str(r[0]), currency, ...money(-amount, currency), ...money(-tax, currency), ...money(tax - amount, currency), null, null, str(r[11])];
    });
  }
}

const paymentsCsv = (ctx: WorkspaceContext, period: Period) => csvFile(PAYMENT_HEADINGS, paymentsAndRefunds(ctx, period), (row: Cell[]) => [row]);

const EXPENSES = `SELECT e.incurred_on, e.id, e.category, e.vendor, e.description, e.project_id, e.currency, e.amount, e.net_amount, e.tax_amount,
  e.billable, e.invoice_id, e.reference, e.document_id
  FROM expenses e WHERE e.workspace_id = ?1 AND ${keyset('e.incurred_on', 'e.id')} ORDER BY e.incurred_on, e.id LIMIT ?6`;

function expensesCsv(ctx: WorkspaceContext, period: Period) {
  return csvFile(
    ['id', 'incurred_on', 'category', 'vendor', 'description', 'project_id', 'currency', ...moneyHeadings('amount'), ...moneyHeadings('net_amount'), ...moneyHeadings('tax_amount'), 'billable', 'invoice_id', 'reference', 'document_id'],
    walk(ctx, EXPENSES, period),
    (r: Row) => {
      const [amount, currency] = [r[7] as number, r[6] as string];
      // Typed in by hand: no input tax (§21), all of it net.
      const tax = (r[9] as number | null) ?? 0;
      const net = (r[8] as number | null) ?? amount - tax;
      return [[str(r[1]), str(r[0]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), currency, ...money(amount, currency), ...money(net, currency), ...money(tax, currency), Boolean(r[10]), str(r[11]), str(r[12]), str(r[13])]];
    },
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

/** The CSV of each kind the bundle holds, by file name. */
export const CSV_FILES: Record<ExportKind, { name: string; write: (ctx: WorkspaceContext, period: Period) => AsyncIterable<Uint8Array> }> = {
  invoices: { name: 'invoices.csv', write: invoicesCsv },
  credit_notes: { name: 'credit_notes.csv', write: creditNotesCsv },
  payments: { name: 'payments.csv', write: paymentsCsv },
  expenses: { name: 'expenses.csv', write: expensesCsv },
  time: { name: 'time_entries.csv', write: timeCsv },
};
