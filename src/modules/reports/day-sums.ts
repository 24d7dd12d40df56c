// What every report's read shares: rows of sums per kind of record, currency and day (`g`, the
// report's own SQL), each beside the rates of its day (rates/history.ts) into the report's currency,
// read in one batch with that currency and the first day kept's rates. One round trip.
import { type SQL, sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { clientOf, type Db } from '../../lib/db';
import { firstDayRates, rateOnOrBefore } from '../rates/history';
import type { DaySum } from './conversion';

/** The report's currency in SQL: the one asked for, else the workspace's `default_currency`. */
export const reportCurrency = (ctx: WorkspaceContext, asked: string | undefined) =>
  sql`(SELECT coalesce(${asked ?? null}, default_currency) AS code FROM workspaces WHERE id = ${ctx.workspaceId})`;

/** A record's rates for `day` into the report's currency `t.code`: none where none is needed (rates/history.ts). */
export const dayRatesOf = (currency: SQL, day: SQL) => {
  const needed = (rate: SQL) => sql`CASE WHEN ${currency} = t.code THEN NULL ELSE ${rate} END`;
  return {
    from_rate: sql<number | null>`${needed(rateOnOrBefore(currency, day))}`,
    to_rate: sql<number | null>`${needed(rateOnOrBefore(sql`t.code`, day))}`,
  };
};

/** A sum's currency and day, and the rates (units per USD) for its day: its currency's and the report's. */
const dayRates = {
  currency: sql<string>`g.currency`,
  day: sql<string>`g.day`,
  from_rate: sql<number | null>`g.from_rate`,
  to_rate: sql<number | null>`g.to_rate`,
};

/** An integer column of `g` as text: exact however large (money.ts, sums). */
export const exactSum = (column: string) => sql<string>`CAST(${sql.raw(`g.${column}`)} AS TEXT)`;

/**
 * The one batch a report reads: its currency, the first day kept's rates, and the rows of `grouped`
 * (with columns currency and day, and whatever `fields` read) beside their day's rates, ordered by
 * `order` where the parts of a converted sum must come in one order each time (shares.ts).
 */
export function daySumsQueries<F extends Record<string, SQL>>(
  ctx: WorkspaceContext,
  asked: string | undefined,
  grouped: (currency: SQL) => SQL,
  fields: F,
  order?: SQL,
): DaySumsQueries<F> {
  const currency = reportCurrency(ctx, asked);
  const db: Db = ctx.db;
  return [db.select({ code: sql<string>`code`.as('code') }).from(currency), firstDayRates(db), daySumsQuery(ctx, currency, grouped, fields, order)] as const;
}

/**
 * The rows of `grouped` beside their day's rates into `currency` (reportCurrency), in `order` if given.
 * The rates are looked up once per currency and day, however many rows share them.
 */
function daySumsQuery(ctx: WorkspaceContext, currency: SQL, grouped: (currency: SQL) => SQL, fields: Record<string, SQL>, order?: SQL): Query {
  const rates = dayRatesOf(sql`x.currency`, sql`x.day`);
  const withRates = sql`(WITH s AS MATERIALIZED (${grouped(currency)}),
      d AS MATERIALIZED (SELECT x.currency, x.day, ${rates.from_rate} AS from_rate, ${rates.to_rate} AS to_rate FROM (SELECT DISTINCT currency, day FROM s) x, ${currency} t)
    SELECT s.*, d.from_rate, d.to_rate FROM s JOIN d ON d.currency = s.currency AND d.day = s.day) g`;
  const query = ctx.db.select(named({ ...fields, ...dayRates })).from(withRates);
  return order ? query.orderBy(order) : query;
}

type Query = { toSQL(): { sql: string; params: unknown[] } };
/** A report's batch, and (as a type only) the row its sums come in. */
export type DaySumsQueries<F> = readonly [Query, Query, Query] & { readonly row?: { [K in keyof F]: F[K] extends SQL<infer T> ? T : never } & DaySum };

/** Each field under its own name in the answer, so that D1's rows can be read as they come. */
const named = (fields: Record<string, SQL>) => Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.as(name)]));


/**
 * Runs a report's daySumsQueries as one D1 batch, its rows as D1 answers them: a year's report is a few
 * thousand rows, and mapping each of their fields through drizzle took more CPU than the rest of it.
 */
export async function readDaySums<F>(ctx: WorkspaceContext, asked: string | undefined, queries: DaySumsQueries<F>) {
  const d1 = clientOf(ctx.db);
  const [workspace, first, sums] = await d1.batch(queries.map((query) => {
    const { sql: text, params } = query.toSQL();
    return d1.prepare(text).bind(...params);
  }));
  return {
    currency: (workspace!.results[0] as { code: string } | undefined)?.code ?? asked ?? 'USD',
    first: first!.results as { currency: string; rate: number }[],
    sums: sums!.results as NonNullable<DaySumsQueries<F>['row']>[],
  };
}
