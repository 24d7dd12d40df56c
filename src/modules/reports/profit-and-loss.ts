// GET /v1/reports/profit-and-loss (§22). Income, expenses and realized exchange differences of a
// period, by month, quarter or project, in one currency.
// - accrual: invoices issued (their net: taxable amount after the document discount, without tax),
//   less credit notes (net) on their own dates; expenses incurred, net of input tax.
// - cash: payments received less refunds that did not fail, each by its net share (§5's split:
//   `payments.tax` and `refunds.tax`), on their own dates; expenses as in accrual.
// - fx_gain_loss: the period's payments in another currency than the report's, converted at their
//   own date's rate less the same converted at their invoice's issue date's rate. In accrual it is
//   part of profit (income counted the invoices at issue-date rates); in cash, income already counts
//   payments at their own date's rates, so it is shown and not added.
// A void invoice counts nowhere (voiding, possible only while nothing is paid, takes it back whole).
// Each kind of record is summed per currency and day in SQL, in one round trip (by month or quarter
// from the sums triggers keep, by project from the records' indexes); each such sum is converted once
// (conversion.ts) and a row holds its share of it (shares.ts), so the totals are the same however
// the rows are grouped.
import { type SQL, sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { exactFigure } from '../../lib/money';
import { dayConverter, type DaySum } from './conversion';
import { daySumsQueries, exactSum, readDaySums } from './day-sums';
import { countedIn } from './records';
import { type DayUnit, periodSumsQueries, readPeriodSums } from './period-sums';
import { monthOf, type Period, periodKeys, quarterOf } from './period';
import { shares } from './shares';

export type Basis = 'accrual' | 'cash';
export type GroupBy = 'month' | 'quarter' | 'project';
export type ProfitAndLossQuery = Period & { currency?: string; basis: Basis; group_by: GroupBy };

/** The sums a row may carry (minor units, as text): the columns of books_daily, and payments at their issue days' rates. */
type Column = 'invoiced' | 'credited' | 'received' | 'received_net' | 'refunded_net' | 'spent' | 'fx_issue';
/** What each basis reads of books_daily (`received`: for the exchange difference). */
const DAILY: Record<Basis, Column[]> = { accrual: ['invoiced', 'credited', 'spent', 'received'], cash: ['received_net', 'refunded_net', 'spent', 'received'] };

/** By project: the records themselves (reports/records.ts), each with its invoice's project. */
function byProjectSums(ctx: WorkspaceContext, q: ProfitAndLossQuery, currency: SQL): SQL {
  const counted = countedIn(ctx.workspaceId, q);
  const target = sql`(SELECT code FROM ${currency})`;
  const projectOf = (a: string) => sql.raw(`(SELECT project_id FROM invoices WHERE id = ${a}.invoice_id)`);
  const income =
    q.basis === 'accrual'
      ? sql`SELECT i.issue_date AS day, i.currency, i.project_id AS key, i.subtotal AS invoiced, 0 AS credited, 0 AS received, 0 AS received_net, 0 AS refunded_net, 0 AS spent, 0 AS fx_issue
            FROM invoices i WHERE ${counted.invoices('i')}
          UNION ALL SELECT c.issue_date, c.currency, ${projectOf('c')}, 0, c.total - c.tax, 0, 0, 0, 0, 0 FROM credit_notes c WHERE ${counted.creditNotes('c')}`
      : sql`SELECT r.refunded_on AS day, r.currency, ${projectOf('r')} AS key, 0 AS invoiced, 0 AS credited, 0 AS received, 0 AS received_net, r.amount - coalesce(r.tax, 0) AS refunded_net, 0 AS spent, 0 AS fx_issue
            FROM refunds r WHERE ${counted.refunds('r')}`;
  return sql`SELECT day, currency, key, sum(invoiced) AS invoiced, sum(credited) AS credited, sum(received) AS received, sum(received_net) AS received_net,
      sum(refunded_net) AS refunded_net, sum(spent) AS spent, sum(fx_issue) AS fx_issue
    FROM (${income}
      UNION ALL SELECT p.paid_on, p.currency, i.project_id, 0, 0, p.amount, p.amount - coalesce(p.tax, 0), 0, 0, 0
        FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE ${counted.payments('p')}
      UNION ALL SELECT i.issue_date, p.currency, i.project_id, 0, 0, 0, 0, 0, 0, p.amount
        FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE ${counted.payments('p')} AND p.currency <> ${target}
      UNION ALL SELECT e.incurred_on, e.currency, e.project_id, 0, 0, 0, 0, 0, coalesce(e.net_amount, e.amount), 0 FROM expenses e WHERE ${counted.expenses('e')})
    GROUP BY day, currency, key`;
}

const sumsOf = (columns: Column[]) => Object.fromEntries(columns.map((column) => [column, exactSum(column)])) as Record<Column, SQL<string>>;

const byProjectQueries = (ctx: WorkspaceContext, q: ProfitAndLossQuery) =>
  daySumsQueries(ctx, q.currency, (code) => byProjectSums(ctx, q, code), { key: sql<string | null>`g.key`, ...sumsOf([...DAILY[q.basis], 'fx_issue']) });

/** The report's one batch (its query plans are tested: test/reports/query-plans.test.ts). */
export const profitAndLossQueries = (ctx: WorkspaceContext, q: ProfitAndLossQuery) =>
  q.group_by === 'project' ? byProjectQueries(ctx, q) : periodSumsQueries(ctx, q, q.currency, DAILY[q.basis]);

type Figures = { income: bigint; expenses: bigint; fx_gain_loss: bigint };
const FIELDS = ['income', 'expenses', 'fx_gain_loss', 'profit'] as const;

/**
 * Which column counts toward which figure, with its sign; `foreign`: only in another currency than
 * the report's (a payment's worth at its own date, less its worth at its issue date: `fx_issue`).
 */
const COUNTED: Record<Basis, { column: Column; field: keyof Figures; sign: bigint; foreign?: true }[]> = {
  accrual: [
    { column: 'invoiced', field: 'income', sign: 1n },
    { column: 'credited', field: 'income', sign: -1n },
    { column: 'spent', field: 'expenses', sign: 1n },
    { column: 'received', field: 'fx_gain_loss', sign: 1n, foreign: true },
    { column: 'fx_issue', field: 'fx_gain_loss', sign: -1n },
  ],
  cash: [
    { column: 'received_net', field: 'income', sign: 1n },
    { column: 'refunded_net', field: 'income', sign: -1n },
    { column: 'spent', field: 'expenses', sign: 1n },
    { column: 'received', field: 'fx_gain_loss', sign: 1n, foreign: true },
    { column: 'fx_issue', field: 'fx_gain_loss', sign: -1n },
  ],
};

type Sum = DaySum & { key?: string | null } & Partial<Record<Column, string | null>>;
const byKey = ({ key: a = null }: Sum, { key: b = null }: Sum) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

export async function profitAndLoss(ctx: WorkspaceContext, q: ProfitAndLossQuery) {
  const { currency, first, sums } =
    q.group_by === 'project'
      ? await readDaySums(ctx, q.currency, byProjectQueries(ctx, q))
      : await readPeriodSums(ctx, q.currency, periodSumsQueries(ctx, q, q.currency, DAILY[q.basis]), DAILY[q.basis].length).then((read) => ({ ...read, sums: read.units }));
  const converter = await dayConverter(ctx.env, currency, sums, first, 'currency');

  const rowKey = (key: string | null) => (q.group_by === 'quarter' ? quarterOf(`${key}-01`) : key);
  const groups = new Map<string | null, Figures>();
  if (q.group_by !== 'project') for (const key of periodKeys(q, q.group_by === 'month' ? monthOf : quarterOf)) groups.set(key, { income: 0n, expenses: 0n, fx_gain_loss: 0n });
  const add = (key: string | null, field: keyof Figures, amount: bigint) => {
    const row = rowKey(key);
    const figures = groups.get(row);
    if (figures) figures[field] += amount;
    else groups.set(row, { income: 0n, expenses: 0n, fx_gain_loss: 0n, [field]: amount });
  };
  const convert = (amount: bigint, sum: Sum) => converter.convert(amount, sum);
  if (q.group_by === 'project') {
    // Each column's sum per currency and day is converted once and split over the projects by share,
    // the projects in order so that ties go the same way each time (shares.ts).
    const days = new Map<string, Sum[]>();
    for (const sum of sums as Sum[]) {
      const unit = `${sum.currency}|${sum.day}`;
      const rows = days.get(unit);
      if (rows) rows.push(sum);
      else days.set(unit, [sum]);
    }
    for (const rows of days.values()) {
      rows.sort(byKey);
      const first = rows[0]!;
      for (const { column, field, sign, foreign } of COUNTED[q.basis]) {
        if (foreign && first.currency === currency) continue;
        const amounts = rows.map((row) => BigInt(row[column] ?? 0));
        const total = amounts.reduce((a, b) => a + b, 0n);
        if (total !== 0n) shares(convert(total, first), amounts).forEach((part, i) => add(rows[i]!.key ?? null, field, sign * part));
      }
    }
  } else {
    // A unit is a currency and day: each of its sums is converted once; the payments at their issue
    // day's rate are split over the months they were paid in by share, the months in order.
    const counted = COUNTED[q.basis].map((count) => ({ ...count, index: DAILY[q.basis].indexOf(count.column) }));
    for (const unit of sums as DayUnit[]) {
      for (const { column, field, sign, foreign, index } of counted) {
        if (foreign && unit.currency === currency) continue;
        if (column !== 'fx_issue') {
          const text = unit.fields?.[unit.at! + index];
          if (text && text !== '0') add(monthOf(unit.day), field, sign * convert(BigInt(text), unit));
          continue;
        }
        if (!unit.paid) continue;
        const paid = unit.paid.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        const amounts = paid.map(([, amount]) => BigInt(amount));
        const converted = convert(amounts.reduce((a, b) => a + b, 0n), unit);
        shares(converted, amounts).forEach((part, i) => add(paid[i]![0], field, sign * part));
      }
    }
  }

  const profitOf = (f: Figures) => f.income - f.expenses + (q.basis === 'accrual' ? f.fx_gain_loss : 0n);
  // A figure past 2^53 − 1 would not be exact in JSON: a 422 on the period (a shorter one may carry it).
  const exact = (f: Figures) =>
    Object.fromEntries(FIELDS.map((field) => [field, exactFigure(field === 'profit' ? profitOf(f) : f[field], 'from', field)])) as Record<(typeof FIELDS)[number], number>;
  const ordered = [...groups].sort(([a], [b]) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1));
  const totals: Figures = { income: 0n, expenses: 0n, fx_gain_loss: 0n };
  for (const [, f] of ordered) for (const field of ['income', 'expenses', 'fx_gain_loss'] as const) totals[field] += f[field];

  return {
    currency,
    basis: q.basis,
    group_by: q.group_by,
    period: { from: q.from, to: q.to },
    rows: ordered.map(([key, f]) => ({ key, ...exact(f) })),
    totals: exact(totals),
    rates_missing: converter.ratesMissing(),
  };
}
