// Converting a report's sums (§22). SQL sums each kind of record per currency and day, and looks up
// the rates of that day (rates/history.ts); each such sum is converted here, exactly (lib/money.ts),
// half away from zero, at the rate of its day. So the work here follows the days and currencies of
// the period, never the number of records, and a day's records in the report's currency add up to
// the cent. A day with no rate kept on or before it takes the first day kept (or, when that day has
// none of the currency, the current snapshot) and is named in `rates_missing`.
import { invalidField } from '../../errors';
import { exponentOf } from '../../lib/currencies';
import { crossRate, divRoundHalfAwayFromZero, type Ratio } from '../../lib/money';
import { type DayRate, resolveDayRate } from '../rates/history';
import { getRatesSnapshot } from '../rates/refresh';
import { ratesUnavailable, type RatesSnapshot } from '../rates/snapshot';

/**
 * A sum of records of one currency and day, with the rates (units per USD) SQL found on or before that
 * day for its currency and the report's; null where there is none, or none is needed (day-sums.ts).
 */
export type DaySum = { currency: string; day: string; from_rate: number | null; to_rate: number | null };

/** `rate` (units of `to` per unit of `from`) as minor units of `to` per minor unit of `from`, as convertMinorExact applies it. */
function minorRatio(rate: Ratio, from: string, to: string): Ratio {
  const shift = exponentOf(to) - exponentOf(from);
  return shift >= 0 ? { num: rate.num * 10n ** BigInt(shift), den: rate.den } : { num: rate.num, den: rate.den * 10n ** BigInt(-shift) };
}

/** A day's ratio, and the same as a double for the quick path of `convert`. */
export type DayRatio = Ratio & { approx: number };

/**
 * `amount × ratio` rounded half away from zero, exactly. Most sums are worked out in doubles: the
 * double product is within a relative 2^-50 of the exact one (the ratio's three roundings and the
 * product's), so when its fraction lies further than four times that from one half, both round
 * alike. A product at or near a tie, or past 2^48, goes through BigInt.
 */
export function applyRatio(amount: bigint, ratio: DayRatio): bigint {
  const value = Number(amount);
  const product = Math.abs(value * ratio.approx);
  const fraction = product - Math.floor(product);
  if (Number.isSafeInteger(value) && product < 2 ** 48 && Math.abs(fraction - 0.5) > product * 2 ** -48 + 2 ** -40) {
    const rounded = Math.floor(product) + (fraction > 0.5 ? 1 : 0);
    return BigInt(value < 0 ? -rounded : rounded);
  }
  return divRoundHalfAwayFromZero(amount * ratio.num, ratio.den);
}

export class DayConverter {
  /** Ratios by currency and the two rates' values: a year's report converts thousands of sums at a few hundred. */
  private readonly ratios = new Map<string, Map<number, Map<number, DayRatio>>>();
  private readonly missing = new Set<string>();
  /** The last row converted, its ratio and whether its rates were missing: a row's sums come one after another. */
  private last: { row: DaySum; ratio: DayRatio; missing: boolean } | undefined;

  constructor(
    readonly target: string,
    private readonly first: ReadonlyMap<string, number>,
    private readonly current: RatesSnapshot | null,
  ) {}

  /** `amount` (minor units of `row.currency`, dated `row.day`) in minor units of the target. */
  convert(amount: bigint, row: DaySum): bigint {
    if (row.currency === this.target || amount === 0n) return amount;
    const last = this.last?.row === row ? this.last : (this.last = { row, ...this.ratioOf(row) });
    if (last.missing) this.missing.add(row.day);
    return applyRatio(amount, last.ratio);
  }

  private ratioOf(row: DaySum): { ratio: DayRatio; missing: boolean } {
    const from = this.rate(row.currency, row.from_rate);
    const to = this.rate(this.target, row.to_rate);
    // The rate in minor units of the target per minor unit of the currency, worked out once per
    // currency and pair of rates.
    let byFrom = this.ratios.get(row.currency);
    if (!byFrom) this.ratios.set(row.currency, (byFrom = new Map()));
    let byTo = byFrom.get(from.rate);
    if (!byTo) byFrom.set(from.rate, (byTo = new Map()));
    let ratio = byTo.get(to.rate);
    if (!ratio) {
      const exact = minorRatio(crossRate({ [row.currency]: from.rate, [this.target]: to.rate }, row.currency, this.target), row.currency, this.target);
      ratio = { ...exact, approx: Number(exact.num) / Number(exact.den) };
      byTo.set(to.rate, ratio);
    }
    return { ratio, missing: from.missing || to.missing };
  }

  /** The dates that had no rate kept on or before them, in order. */
  ratesMissing(): string[] {
    return [...this.missing].sort();
  }

  private rate(currency: string, found: number | null): DayRate {
    const rate = resolveDayRate(currency, found, this.first, this.current);
    if (!rate) throw ratesUnavailable(`No exchange rate for ${currency} has been kept yet.`);
    return rate;
  }
}

/**
 * The converter for a report's sums in `target`. The current snapshot is read (from KV, no D1 round
 * trip) only when some currency has no day kept at all. A report currency no rate was ever published
 * for is the caller's to fix (422 on `currencyField`); a stored one, an outage (503).
 */
export async function dayConverter(
  env: Env,
  target: string,
  sums: readonly DaySum[],
  firstDay: readonly { currency: string; rate: number }[],
  currencyField?: string,
): Promise<DayConverter> {
  const first = new Map(firstDay.map((row) => [row.currency, row.rate]));
  const neverKept = (code: string, found: number | null) => code !== 'USD' && found === null && !first.has(code);
  let targetNeverKept = false;
  let needsCurrent = false;
  for (const row of sums) {
    if (row.currency === target) continue;
    if (neverKept(target, row.to_rate)) targetNeverKept = needsCurrent = true;
    else if (neverKept(row.currency, row.from_rate)) needsCurrent = true;
  }
  const current = needsCurrent ? await getRatesSnapshot(env) : null;
  if (currencyField && targetNeverKept && current && current.rates[target] === undefined) {
    throw invalidField(currencyField, `No exchange rate is published for ${target}.`);
  }
  return new DayConverter(target, first, current);
}
