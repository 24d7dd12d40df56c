// The profit and loss's sums by month or quarter (§22), read as three texts of one row rather than a
// row per currency and day: handing a year's 1,200 rows of nine values over from D1 cost more CPU
// than SQLite's reading them, and so did joining each to its rates in SQL.
// - `daily`: the daily sums the triggers keep (books_daily), `day,currency,sum,sum,…,day,…` (in the
//   report's own currency, which needs no rate, by month);
// - `fx`: the period's payments in another currency than the report's by their invoice's issue day
//   and the month paid in (books_fx_issue for whole months, the payments themselves for the days at
//   the period's ends), `issue_day,currency,month,amount,,,…`; one whose issue day is before the period
//   carries that day's two rates in its last two fields (each a seek on the rates' key);
// - `rates`: the rates kept over the period, `currency,day,rate,…`, of every currency the period's
//   sums are in and of the report's: from the day kept on or before `from` to `to`, so the rate of any
//   day in the period is the nearest at or before it in this list (rates/history.ts).
// Integers go as text exactly; a rate as printf('%!.17g'): 17 significant digits name a double
// exactly, and SQLite's own text form of a REAL keeps 15 and would change it.
import { type SQL, sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { clientOf } from '../../lib/db';
import { splitPeriod } from '../dashboard/period';
import { firstDayRates } from '../rates/history';
import type { DaySum } from './conversion';
import { reportCurrency } from './day-sums';
import type { Period } from './period';

/** A rate as text that reads back as the very same double. */
const exactRate = (rate: SQL) => sql`printf('%!.17g', ${rate})`;

/** `code`'s rate on the nearest day on or before `day`, as exact text; '' where none is kept (USD needs none). */
const rateText = (code: SQL, day: SQL) => sql`CASE WHEN ${code} = 'USD' THEN '' ELSE ifnull((
  SELECT ${exactRate(sql`r.rate`)} FROM exchange_rates r WHERE r.currency = ${code} AND r.day <= ${day} ORDER BY r.day DESC LIMIT 1), '') END`;

/** The one row's three texts for `period` in the report's currency (`currency`: reportCurrency), `columns` of books_daily. */
export function periodSumsQuery(ctx: WorkspaceContext, period: Period, currency: SQL, columns: readonly string[]) {
  const ws = ctx.workspaceId;
  const { from, to } = period;
  const target = sql`(SELECT code FROM ${currency})`;
  const parts = splitPeriod(period);
  const edge = ([first, last]: [string, string]) =>
    sql`SELECT i.issue_date AS day, p.currency AS currency, substr(p.paid_on, 1, 7) AS month, sum(p.amount) AS amount
      FROM payments p JOIN invoices i ON i.id = p.invoice_id
      WHERE p.workspace_id = ${ws} AND p.paid_on BETWEEN ${first} AND ${last} AND p.currency <> ${target}
      GROUP BY i.issue_date, p.currency, substr(p.paid_on, 1, 7)`;
  const sums = sql.raw(columns.map((column) => ` || ',' || b.${column}`).join(''));
  const monthSums = sql.raw(columns.map((column) => ` || ',' || sum(b.${column})`).join(''));
  const someSum = sql.raw(columns.map((column) => `b.${column} <> 0`).join(' OR '));
  // The report's own currency needs no rate: its sums come by month, dated the month's first day.
  const daily = sql`SELECT group_concat(entry) FROM (
      SELECT b.day || ',' || b.currency${sums} AS entry FROM books_daily b
      WHERE b.workspace_id = ${ws} AND b.day BETWEEN ${from} AND ${to} AND b.currency <> ${target} AND (${someSum})
      UNION ALL SELECT substr(b.day, 1, 7) || '-01,' || b.currency${monthSums} FROM books_daily b
      WHERE b.workspace_id = ${ws} AND b.day BETWEEN ${from} AND ${to} AND b.currency = ${target}
      GROUP BY substr(b.day, 1, 7))`;
  const early = sql`CASE WHEN x.day < ${from} THEN ${rateText(sql`x.currency`, sql`x.day`)} || ',' || ${rateText(target, sql`x.day`)} ELSE ',' END`;
  const fx = sql`SELECT group_concat(x.day || ',' || x.currency || ',' || x.month || ',' || x.amount || ',' || ${early}) FROM (
      SELECT f.issue_day AS day, f.currency AS currency, f.paid_month AS month, f.amount AS amount
      FROM books_fx_issue f WHERE f.workspace_id = ${ws} AND f.paid_month BETWEEN ${parts.months[0]} AND ${parts.months[1]} AND f.currency <> ${target} AND f.amount <> 0
      UNION ALL ${edge(parts.head)}
      UNION ALL ${edge(parts.tail)}) x`;
  // Every payment of the period is in books_daily on its day, so these are all the currencies needed.
  const rates = sql`SELECT group_concat(r.currency || ',' || r.day || ',' || ${exactRate(sql`r.rate`)}) FROM (
      SELECT DISTINCT b.currency AS code FROM books_daily b WHERE b.workspace_id = ${ws} AND b.day BETWEEN ${from} AND ${to}
      UNION SELECT code FROM ${currency}) kept
    JOIN exchange_rates r ON r.currency = kept.code AND r.day BETWEEN coalesce((
      SELECT max(e.day) FROM exchange_rates e WHERE e.currency = kept.code AND e.day <= ${from}), ${from}) AND ${to}
    WHERE kept.code <> 'USD'`;
  return ctx.db
    .select({ daily: sql<string | null>`g.daily`.as('daily'), fx: sql<string | null>`g.fx`.as('fx'), rates: sql<string | null>`g.rates`.as('rates') })
    .from(sql`(SELECT (${daily}) AS daily, (${fx}) AS fx, (${rates}) AS rates) g`);
}

type Query = { toSQL(): { sql: string; params: unknown[] } };

/** The report's one batch by month or quarter: its currency, the first day kept's rates, the texts. */
export const periodSumsQueries = (ctx: WorkspaceContext, period: Period, asked: string | undefined, columns: readonly string[]) => {
  const currency = reportCurrency(ctx, asked);
  const queries = [ctx.db.select({ code: sql<string>`code`.as('code') }).from(currency), firstDayRates(ctx.db), periodSumsQuery(ctx, period, currency, columns)] as const;
  return Object.assign(queries, { period });
};

/**
 * A currency and day of the period with its rates (DaySum), and either its daily sums (`fields[at]`,
 * `fields[at + 1]`, …: the columns asked for, as text) or its payments by the month paid in.
 */
export type DayUnit = DaySum & { fields?: string[]; at?: number; paid?: [month: string, amount: string][] };

/** The nearest rate at or before `day` among one currency's rates (days in order), as D1 would hand it over. */
function rateAt(kept: { days: string[]; rates: number[] } | undefined, day: string): number | null {
  if (!kept) return null;
  let low = 0;
  let high = kept.days.length; // the first day after `day` is in [low, high]
  while (low < high) {
    const mid = (low + high) >> 1;
    if (kept.days[mid]! <= day) low = mid + 1;
    else high = mid;
  }
  return low === 0 ? null : kept.rates[low - 1]!;
}

/** A text's comma-separated fields: one split for the whole text, read in steps of an entry's width. */
const fieldsOf = (text: string | null) => (text ? text.split(',') : []);
const DAILY_KEY = 2; // day, currency, then the sums
const FX_WIDTH = 6; // issue day, currency, month paid in, amount, and for a day before the period its two rates

/**
 * Runs the batch (one round trip) and reads its texts into units of a currency and day, each with the
 * rates it converts at (null where none is needed or none is kept, as rates/history.ts answers). A
 * day's daily sums and its payments by issue day are separate units: they convert alike.
 */
export async function readPeriodSums(ctx: WorkspaceContext, asked: string | undefined, queries: ReturnType<typeof periodSumsQueries>, width: number) {
  const d1 = clientOf(ctx.db);
  const [workspace, first, texts] = await d1.batch(queries.map((query: Query) => {
    const { sql: text, params } = query.toSQL();
    return d1.prepare(text).bind(...params);
  }));
  const currency = (workspace!.results[0] as { code: string } | undefined)?.code ?? asked ?? 'USD';
  const { daily, fx, rates } = (texts!.results[0] ?? {}) as { daily: string | null; fx: string | null; rates: string | null };

  const kept = new Map<string, { days: string[]; rates: number[] }>();
  const r = fieldsOf(rates);
  for (let i = 0; i < r.length; i += 3) {
    const code = r[i]!;
    let list = kept.get(code);
    if (!list) kept.set(code, (list = { days: [], rates: [] }));
    list.days.push(r[i + 1]!);
    list.rates.push(Number(r[i + 2]!));
  }
  for (const list of kept.values()) {
    // group_concat keeps the order the index gives; should it not, put the days in order.
    if (list.days.some((day, i) => i > 0 && day < list.days[i - 1]!)) {
      const order = list.days.map((_, i) => i).sort((a, b) => (list.days[a]! < list.days[b]! ? -1 : 1));
      [list.days, list.rates] = [order.map((i) => list.days[i]!), order.map((i) => list.rates[i]!)];
    }
  }
  const rateOf = (code: string, day: string) => (code === 'USD' ? 1 : rateAt(kept.get(code), day));
  const keptRate = (code: string, text: string) => (code === 'USD' ? 1 : text === '' ? null : Number(text));
  const foreign = (code: string, day: string, which: 'from' | 'to') => (code === currency ? null : rateOf(which === 'from' ? code : currency, day));

  const units: DayUnit[] = [];
  const d = fieldsOf(daily);
  for (let i = 0; i < d.length; i += DAILY_KEY + width) {
    const [day, code] = [d[i]!, d[i + 1]!];
    units.push({ currency: code, day, from_rate: foreign(code, day, 'from'), to_rate: foreign(code, day, 'to'), fields: d, at: i + DAILY_KEY });
  }
  // By currency, then issue day: a day's payments of one currency are one unit.
  const byIssueDay = new Map<string, Map<string, DayUnit>>();
  const f = fieldsOf(fx);
  for (let i = 0; i < f.length; i += FX_WIDTH) {
    const [day, code] = [f[i]!, f[i + 1]!];
    let days = byIssueDay.get(code);
    if (!days) byIssueDay.set(code, (days = new Map()));
    let paid = days.get(day);
    if (!paid) {
      // Only a day before the period carries its rates: the list of rates starts at the period.
      const early = day < queries.period.from;
      const [from_rate, to_rate] = early ? [keptRate(code, f[i + 4]!), keptRate(currency, f[i + 5]!)] : [foreign(code, day, 'from'), foreign(code, day, 'to')];
      paid = { currency: code, day, from_rate, to_rate, paid: [] };
      days.set(day, paid);
      units.push(paid);
    }
    paid.paid!.push([f[i + 2]!, f[i + 3]!]);
  }
  return { currency, first: first!.results as { currency: string; rate: number }[], units };
}
