// What every report's read shares: rows of sums per kind of record, currency and day (`g`, the
// report's own SQL), each beside the rates of its day (rates/history.ts) into the report's currency,
// read in one batch with that currency and the first day kept's rates. One round trip.
import { type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/sqlite-core';
import type { WorkspaceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { firstDayRates, rateOnOrBefore } from '../rates/history';

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

/** A sum's rates (units per USD) for its day: its currency's and the report's. */
const dayRates = {
  currency: sql<string>`g.currency`,
  day: sql<string>`g.day`,
  ...dayRatesOf(sql`g.currency`, sql`g.day`),
};

/** An integer column of `g` as text: exact however large (money.ts, sums). */
export const exactSum = (column: string) => sql<string>`CAST(${sql.raw(`g.${column}`)} AS TEXT)`;

/**
 * The one batch a report reads: its currency, the first day kept's rates, and the rows of `grouped` (with columns currency and
 * day, and whatever `fields` read) beside their day's rates, ordered by `order`, so that the parts
 * of a converted sum come in one order each time (shares.ts).
 */
export function daySumsQueries<F extends SelectedFields>(ctx: WorkspaceContext, asked: string | undefined, grouped: (currency: SQL) => SQL, fields: F, order: SQL) {
  const currency = reportCurrency(ctx, asked);
  const db: Db = ctx.db;
  return [
    db.select({ code: sql<string>`code` }).from(currency),
    firstDayRates(db),
    db.select({ ...fields, ...dayRates }).from(sql`(${grouped(currency)}) g, ${currency} t`).orderBy(order),
  ] as const;
}

/** Runs a report's daySumsQueries in one batch. */
export async function readDaySums<F extends SelectedFields>(ctx: WorkspaceContext, asked: string | undefined, queries: ReturnType<typeof daySumsQueries<F>>) {
  const [[workspace], first, sums] = await ctx.db.batch(queries);
  return { currency: workspace?.code ?? asked ?? 'USD', first, sums };
}
