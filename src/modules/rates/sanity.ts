// What makes a fetched snapshot believable (§5). A provider that is up and answers well-formed JSON
// can still be wrong: a rate of 0.0001 for EUR would make a transfer pay out nothing. A new snapshot
// is compared with the last good one before it replaces it:
// - refused whole when it claims to be from the future (more than 5 minutes), is older than the
//   last good one, holds a rate that is not a positive finite number or lies outside 10^-6 .. 10^9
//   units per USD (a currency new to the snapshot included: no real currency is there, and a rate
//   beyond it breaks exact conversion), moves a major currency by more than 25 % from the last
//   good one or from the reference (the last good snapshot at least 24 hours older, so a chain of
//   small steps cannot walk a rate away), or drops a major currency the last good one had (an
//   answer cut short, not a currency that ceased to exist);
// - otherwise accepted, except that a minor currency that moved by more than a factor of 10 keeps
//   its last good rate and is listed in `suspect`.
import type { RatesSnapshot } from './snapshot';

export const MAJOR_CURRENCIES = ['EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'CNY'] as const;
const MAX_MAJOR_MOVE = 0.25;
const MAX_MINOR_FACTOR = 10;
const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Units per USD outside this range are no real currency's. */
export const MIN_RATE = 1e-6;
export const MAX_RATE = 1e9;
/** The reference a new snapshot is also compared with is at least this much older than it. */
export const REFERENCE_AGE_MS = 24 * 60 * 60 * 1000;
/** Safety bound on the history kept in KV (the cron adds at most one entry per run, 96 a day). */
const MAX_HISTORY = 500;

/** The major currencies' rates of a good snapshot, as kept in the history. */
export type MajorRatesAt = { as_of: string; rates: Record<string, number> };

export class SnapshotRefused extends Error {
  override readonly name = 'SnapshotRefused';
}

const isPositiveFinite = (rate: unknown): rate is number => typeof rate === 'number' && Number.isFinite(rate) && rate > 0;

export const majorRatesOf = (snapshot: RatesSnapshot): MajorRatesAt => ({
  as_of: snapshot.as_of,
  rates: Object.fromEntries(MAJOR_CURRENCIES.filter((code) => isPositiveFinite(snapshot.rates[code])).map((code) => [code, snapshot.rates[code]!])),
});

/**
 * The good snapshot one published at `asOf` is also compared with: the newest at least 24 hours
 * older; while the history is younger than that, its oldest entry (stricter, never looser).
 */
export function referenceFor(history: MajorRatesAt[], asOf: string): MajorRatesAt | undefined {
  const cutoff = Date.parse(asOf) - REFERENCE_AGE_MS;
  const older = history.filter((entry) => Date.parse(entry.as_of) <= cutoff);
  return older.at(-1) ?? history[0];
}

/**
 * The history to keep once `stored` is the last good snapshot, oldest first: only what a later
 * snapshot (never older than `stored`) can need, from its reference on.
 */
export function nextHistory(history: MajorRatesAt[], stored: RatesSnapshot): MajorRatesAt[] {
  const entries = [...history.filter((entry) => entry.as_of < stored.as_of), majorRatesOf(stored)];
  const cutoff = Date.parse(stored.as_of) - REFERENCE_AGE_MS;
  let from = 0;
  entries.forEach((entry, i) => {
    if (Date.parse(entry.as_of) <= cutoff) from = i;
  });
  return entries.slice(from).slice(-MAX_HISTORY);
}

/**
 * The snapshot to store in place of `lastGood`, or a SnapshotRefused saying why none. `reference`
 * is the last good snapshot at least 24 hours older than `next` (referenceFor), when there is one.
 */
export function vetSnapshot(next: RatesSnapshot, lastGood: RatesSnapshot | null, now = Date.now(), reference?: MajorRatesAt): RatesSnapshot {
  const asOf = Date.parse(next.as_of);
  if (!(asOf <= now + MAX_CLOCK_SKEW_MS)) throw new SnapshotRefused(`as_of ${next.as_of} is in the future`);
  for (const [code, rate] of Object.entries(next.rates)) {
    if (!isPositiveFinite(rate)) throw new SnapshotRefused(`the rate for ${code} is not a positive finite number`);
    if (rate < MIN_RATE || rate > MAX_RATE) throw new SnapshotRefused(`the rate for ${code} (${rate}) lies outside ${MIN_RATE} .. ${MAX_RATE} units per USD`);
  }
  if (!lastGood) return { ...next, suspect: [] };
  if (asOf < Date.parse(lastGood.as_of)) throw new SnapshotRefused(`as_of ${next.as_of} is older than the last good ${lastGood.as_of}`);
  if (reference) {
    for (const code of MAJOR_CURRENCIES) {
      const [rate, then] = [next.rates[code], reference.rates[code]];
      if (rate === undefined || !isPositiveFinite(then)) continue;
      const factor = rate / then;
      if (Math.abs(factor - 1) > MAX_MAJOR_MOVE) {
        throw new SnapshotRefused(`${code} moved ${Math.round((factor - 1) * 100)} % since the good snapshot of ${reference.as_of}`);
      }
    }
  }

  const dropped = MAJOR_CURRENCIES.filter((code) => isPositiveFinite(lastGood.rates[code]) && !(code in next.rates));
  if (dropped.length) throw new SnapshotRefused(`it has no rate for ${dropped.join(', ')}, which the last good snapshot had`);

  const rates = { ...next.rates };
  const suspect: string[] = [];
  for (const [code, rate] of Object.entries(next.rates)) {
    const previous = lastGood.rates[code];
    if (!isPositiveFinite(previous)) continue;
    const factor = rate / previous;
    if ((MAJOR_CURRENCIES as readonly string[]).includes(code)) {
      if (Math.abs(factor - 1) > MAX_MAJOR_MOVE) throw new SnapshotRefused(`${code} moved ${Math.round((factor - 1) * 100)} % since the last good snapshot`);
    } else if (factor > MAX_MINOR_FACTOR || factor < 1 / MAX_MINOR_FACTOR) {
      rates[code] = previous;
      suspect.push(code);
    }
  }
  return { ...next, rates, suspect: suspect.sort() };
}
