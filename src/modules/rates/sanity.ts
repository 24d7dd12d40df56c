// What makes a fetched snapshot believable (§5). A provider that is up and answers well-formed JSON
// can still be wrong: a rate of 0.0001 for EUR would make a transfer pay out nothing. A new snapshot
// is compared with the last good one before it replaces it:
// - refused whole when it claims to be from the future (more than 5 minutes), is older than the
//   last good one, holds a rate that is not a positive finite number, moves a major currency by
//   more than 25 %, or drops a major currency the last good one had (an answer cut short, not a
//   currency that ceased to exist);
// - otherwise accepted, except that a minor currency that moved by more than a factor of 10 keeps
//   its last good rate and is listed in `suspect`.
import type { RatesSnapshot } from './snapshot';

export const MAJOR_CURRENCIES = ['EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'CNY'] as const;
const MAX_MAJOR_MOVE = 0.25;
const MAX_MINOR_FACTOR = 10;
const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

export class SnapshotRefused extends Error {
  override readonly name = 'SnapshotRefused';
}

const isPositiveFinite = (rate: unknown): rate is number => typeof rate === 'number' && Number.isFinite(rate) && rate > 0;

/** The snapshot to store in place of `lastGood`, or a SnapshotRefused saying why none. */
export function vetSnapshot(next: RatesSnapshot, lastGood: RatesSnapshot | null, now = Date.now()): RatesSnapshot {
  const asOf = Date.parse(next.as_of);
  if (!(asOf <= now + MAX_CLOCK_SKEW_MS)) throw new SnapshotRefused(`as_of ${next.as_of} is in the future`);
  for (const [code, rate] of Object.entries(next.rates)) {
    if (!isPositiveFinite(rate)) throw new SnapshotRefused(`the rate for ${code} is not a positive finite number`);
  }
  if (!lastGood) return { ...next, suspect: [] };
  if (asOf < Date.parse(lastGood.as_of)) throw new SnapshotRefused(`as_of ${next.as_of} is older than the last good ${lastGood.as_of}`);

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
