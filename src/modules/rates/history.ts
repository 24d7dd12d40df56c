// §22: the rates of past days. Every refresh that stores a snapshot also keeps its rates as those of
// the UTC day of its `as_of` (a later snapshot of that day replaces them), in every database that
// holds workspaces, so a report reads its records and their dates' rates in one round trip.
// The rate of a date is that of the nearest day on or before it; a date before the first day kept
// takes the first day's (and a report names it in `rates_missing`). The dashboard keeps current rates.
import { sql } from 'drizzle-orm';
import { databaseBinding, workspaceDatabases } from '../../lib/databases';
import type { Db } from '../../lib/db';
import type { RatesSnapshot } from './snapshot';

const KEEP_DAY_RATES = `INSERT INTO exchange_rates (currency, day, rate, as_of)
  SELECT key, ?1, value, ?2 FROM json_each(?3) WHERE true
  ON CONFLICT (currency, day) DO UPDATE SET rate = excluded.rate, as_of = excluded.as_of
  WHERE excluded.as_of > exchange_rates.as_of`;

/** Keeps `snapshot` as its day's rates in every workspace database; one failing leaves the others. */
export async function keepDayRates(env: Env, snapshot: RatesSnapshot): Promise<void> {
  const day = snapshot.as_of.slice(0, 10);
  const rates = JSON.stringify(snapshot.rates);
  const results = await Promise.allSettled(
    workspaceDatabases(env).map((name) =>
      // One statement for any number of currencies (the 100-parameter bound never applies). An older
      // snapshot of the day, or the same one again, changes nothing. Plain D1: the refresh runs in
      // the cron and on a request's first fill, which should not load the drizzle schema for it.
      databaseBinding(env, name).prepare(KEEP_DAY_RATES).bind(day, snapshot.as_of, rates).run(),
    ),
  );
  results.forEach((result, i) => {
    if (result.status === 'rejected') {
      console.error(JSON.stringify({ level: 'error', message: 'keeping the day\'s rates failed', database: workspaceDatabases(env)[i], reason: String(result.reason) }));
    }
  });
}

/**
 * The rate (units per USD) of `currency` on the nearest day on or before `day`, as an SQL
 * expression over the two (columns or values); null when no day that early is kept. USD is 1.
 */
export const rateOnOrBefore = (currency: unknown, day: unknown) => sql`CASE WHEN ${currency} = 'USD' THEN 1.0 ELSE (
  SELECT r.rate FROM exchange_rates r WHERE r.currency = ${currency} AND r.day <= ${day} ORDER BY r.day DESC LIMIT 1) END`;

/** The first day kept and its rates: what a date before it converts at. */
export const firstDayRates = (db: Db) =>
  db.select({ currency: sql<string>`currency`.as('currency'), rate: sql<number>`rate`.as('rate') }).from(sql`exchange_rates`).where(sql`day = (SELECT min(day) FROM exchange_rates)`);

/** A looked-up rate, and whether its date had none kept on or before it. */
export type DayRate = { rate: number; missing: boolean };

/**
 * The rate of `currency` for a record: the one kept on or before its date, else the first day's
 * (missing), else the current snapshot's (missing); undefined when none has the currency.
 */
export function resolveDayRate(currency: string, found: number | null, first: ReadonlyMap<string, number>, current: RatesSnapshot | null): DayRate | undefined {
  if (currency === 'USD') return { rate: 1, missing: false };
  if (found !== null) return { rate: found, missing: false };
  const rate = first.get(currency) ?? current?.rates[currency];
  return rate === undefined ? undefined : { rate, missing: true };
}
