// What every report's read shares: rows of sums per kind of record, currency and day (`g`, the
// report's own SQL), each beside the rates of its day (rates/history.ts) into the report's currency,
// read in one batch with that currency and the first day kept of each currency. One round trip.
import { type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/sqlite-core';
import type { WorkspaceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { firstDayRates, rateOnOrBefore } from '../rates/history';

/** The report's currency in SQL: the one asked for, else the workspace's `default_currency`. */
export const reportCurrency = (ctx: WorkspaceContext, asked: string | undefined) =>
  sql`(SELECT coalesce(${asked ?? null}, default_currency) AS code FROM workspaces WHERE id = ${ctx.workspaceId})`;

/** A sum's rates (units per USD) for its day: its currency's and the report's; null where none is needed or kept. */
const dayRates = {
  currency: sql<string>`g.currency`,
  day: sql<string>`g.day`,
  from_rate: sql<number | null>`CASE WHEN g.currency = t.code THEN NULL ELSE ${rateOnOrBefore(sql`g.currency`, sql`g.day`)} END`,
  to_rate: sql<number | null>`CASE WHEN g.currency = t.code THEN NULL ELSE ${rateOnOrBefore(sql`t.code`, sql`g.day`)} END`,
};

/** An integer column of `g` as text: exact however large (money.ts, sums). */
export const exactSum = (column: string) => sql<string>`CAST(${sql.raw(`g.${column}`)} AS TEXT)`;

/**
 * One batch: the report's currency, the first day kept of each currency, and the rows of `grouped`
 * (with columns currency and day, and whatever `fields` read) beside their day's rates, ordered by
 * `order` (so that the parts of a converted sum come in one order each time; shares.ts).
 */
export async function readDaySums<F extends SelectedFields>(
  ctx: WorkspaceContext,
  asked: string | undefined,
  grouped: (currency: SQL) => SQL,
  fields: F,
  order: SQL,
) {
  const currency = reportCurrency(ctx, asked);
  const db: Db = ctx.db;
  const [[workspace], first, sums] = await db.batch([
    db.select({ code: sql<string>`code` }).from(currency),
    firstDayRates(db),
    db.select({ ...fields, ...dayRates }).from(sql`(${grouped(currency)}) g, ${currency} t`).orderBy(order),
  ]);
  return { currency: workspace?.code ?? asked ?? 'USD', first, sums };
}
