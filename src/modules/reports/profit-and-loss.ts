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
// Each kind of record is summed per currency and day in SQL, from indexes, in one round trip; each
// such sum is converted once (conversion.ts) and a row holds its share of it (shares.ts), so the
// totals are the same however the rows are grouped.
import { type SQL, sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { exactFigure } from '../../lib/money';
import { dayConverter } from './conversion';
import { daySumsQueries, exactSum, readDaySums } from './day-sums';
import { countedIn } from './records';
import { monthOf, type Period, periodKeys, quarterOf } from './period';
import { convertedShares } from './shares';

export type Basis = 'accrual' | 'cash';
export type GroupBy = 'month' | 'quarter' | 'project';
export type ProfitAndLossQuery = Period & { currency?: string; basis: Basis; group_by: GroupBy };

/** What a row groups by, from the date that places a record in the period (its month) or its project. */
const keyOf = (groupBy: GroupBy, date: SQL, project: SQL) => (groupBy === 'project' ? project : sql`substr(${date}, 1, 7)`);

function profitAndLossSums(ctx: WorkspaceContext, q: ProfitAndLossQuery, currency: SQL): SQL {
  const counted = countedIn(ctx.workspaceId, q);
  const byProject = q.group_by === 'project';
  // Payments, refunds and credit notes take their project from their invoice, joined only when asked.
  const invoiceOf = (a: string) => (byProject ? sql.raw(` JOIN invoices i ON i.id = ${a}.invoice_id`) : sql``);
  const project = sql.raw(byProject ? 'i.project_id' : 'NULL');
  const groupProject = sql.raw(byProject ? ', key' : '');
  const foreign = sql`p.currency <> (SELECT code FROM ${currency})`;

  const expenses = sql`SELECT 'expense' AS kind, e.currency, e.incurred_on AS day, ${keyOf(q.group_by, sql`e.incurred_on`, sql`e.project_id`)} AS key,
      sum(coalesce(e.net_amount, e.amount)) AS amount
    FROM expenses e WHERE ${counted.expenses('e')}
    GROUP BY e.incurred_on, e.currency${groupProject}`;
  // Each payment in another currency: + at its own date's rate, − at its invoice's issue date's.
  const fx = sql`SELECT 'fx_paid' AS kind, p.currency, p.paid_on AS day, ${keyOf(q.group_by, sql`p.paid_on`, project)} AS key, sum(p.amount) AS amount
      FROM payments p${invoiceOf('p')} WHERE ${counted.payments('p')} AND ${foreign}
      GROUP BY p.paid_on, p.currency${groupProject}
    UNION ALL
    SELECT 'fx_issue', p.currency, i.issue_date, ${keyOf(q.group_by, sql`p.paid_on`, project)} AS key, -sum(p.amount)
      FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE ${counted.payments('p')} AND ${foreign}
      GROUP BY i.issue_date, p.currency, key`;

  const income =
    q.basis === 'accrual'
      ? sql`SELECT 'invoice' AS kind, i.currency, i.issue_date AS day, ${keyOf(q.group_by, sql`i.issue_date`, sql`i.project_id`)} AS key, sum(i.subtotal) AS amount
            FROM invoices i WHERE ${counted.invoices('i')}
            GROUP BY i.issue_date, i.currency${groupProject}
          UNION ALL
          SELECT 'credit_note', c.currency, c.issue_date, ${keyOf(q.group_by, sql`c.issue_date`, project)} AS key, -sum(c.total - c.tax)
            FROM credit_notes c${invoiceOf('c')} WHERE ${counted.creditNotes('c')}
            GROUP BY c.issue_date, c.currency${groupProject}`
      : sql`SELECT 'payment' AS kind, p.currency, p.paid_on AS day, ${keyOf(q.group_by, sql`p.paid_on`, project)} AS key, sum(p.amount - coalesce(p.tax, 0)) AS amount
            FROM payments p${invoiceOf('p')} WHERE ${counted.payments('p')}
            GROUP BY p.paid_on, p.currency${groupProject}
          UNION ALL
          SELECT 'refund', r.currency, r.refunded_on, ${keyOf(q.group_by, sql`r.refunded_on`, project)} AS key, -sum(r.amount - coalesce(r.tax, 0))
            FROM refunds r${invoiceOf('r')} WHERE ${counted.refunds('r')}
            GROUP BY r.refunded_on, r.currency${groupProject}`;
  return sql`${income} UNION ALL ${expenses} UNION ALL ${fx}`;
}

/** The report's one batch (its query plans are tested: test/reports/query-plans.test.ts). */
export const profitAndLossQueries = (ctx: WorkspaceContext, q: ProfitAndLossQuery) =>
  daySumsQueries(
    ctx, q.currency, (code) => profitAndLossSums(ctx, q, code),
    { kind: sql<string>`g.kind`, key: sql<string | null>`g.key`, amount: exactSum('amount') },
    sql`g.kind, g.currency, g.day, g.key`,
  );

type Figures = { income: bigint; expenses: bigint; fx_gain_loss: bigint };
const FIELD_OF: Record<string, keyof Figures> = {
  invoice: 'income', credit_note: 'income', payment: 'income', refund: 'income', expense: 'expenses', fx_paid: 'fx_gain_loss', fx_issue: 'fx_gain_loss',
};
const FIELDS = ['income', 'expenses', 'fx_gain_loss', 'profit'] as const;

export async function profitAndLoss(ctx: WorkspaceContext, q: ProfitAndLossQuery) {
  const { currency, sums } = await readDaySums(ctx, q.currency, profitAndLossQueries(ctx, q));
  const converter = await dayConverter(ctx.env, currency, sums, 'currency');

  const rowKey = (key: string | null) => (q.group_by === 'quarter' ? quarterOf(`${key}-01`) : key);
  const groups = new Map<string | null, Figures>();
  if (q.group_by !== 'project') for (const key of periodKeys(q, q.group_by === 'month' ? monthOf : quarterOf)) groups.set(key, { income: 0n, expenses: 0n, fx_gain_loss: 0n });
  // Each kind's sum per currency and day is converted once, and split over the rows by share.
  const converted = convertedShares(sums, (s) => `${s.kind}|${s.currency}|${s.day}`, (s) => BigInt(s.amount), (sum, s) => converter.convert(sum, s));
  for (const [sum, amount] of converted) {
    const key = rowKey(sum.key);
    const figures = groups.get(key) ?? { income: 0n, expenses: 0n, fx_gain_loss: 0n };
    figures[FIELD_OF[sum.kind]!] += amount;
    groups.set(key, figures);
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
