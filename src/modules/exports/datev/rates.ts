// A booking in a currency other than the header's carries its amount in the header's currency too, and the rate
// (DATEV's Kurs, fields 4–6): the units of the booking's currency per one of the header's, the way the euro is quoted
// (1 EUR = 1,0850 USD), with six decimals. Each booking at the rate of its own date, as the reports convert (§22,
// rates/history.ts): the nearest day kept on or before it, else the first day kept's, else the current snapshot.
// The days kept for the period's currencies are read once (one round trip) and looked up here.
import { divRoundHalfAwayFromZero, convertMinor, crossRate, type Ratio } from '../../../lib/money';
import type { WorkspaceContext } from '../../../lib/context';
import { clientOf } from '../../../lib/db';
import { exponentOf } from '../../../lib/currencies';
import { resolveDayRate } from '../../rates/history';
import { getRatesSnapshot } from '../../rates/refresh';
import { ratesUnavailable } from '../../rates/snapshot';
import type { Period } from '../period';
import type { ToBase } from './bookings';

// The currencies of the period's records, then the days kept for them (and the header's): from the last on or before
// the period's start to its end.
// (D1 allows few terms in a compound SELECT: one statement per kind, in one batch.)
const CURRENCIES = [
  `SELECT DISTINCT currency FROM invoices WHERE workspace_id = ?1 AND issue_date BETWEEN ?2 AND ?3`,
  `SELECT DISTINCT currency FROM invoices WHERE workspace_id = ?1 AND status = 'void' AND voided_at BETWEEN date(?2, '-1 day') AND date(?3, '+1 day') || 'T99'`,
  `SELECT DISTINCT currency FROM credit_notes WHERE workspace_id = ?1 AND issue_date BETWEEN ?2 AND ?3`,
  `SELECT DISTINCT currency FROM payments WHERE workspace_id = ?1 AND paid_on BETWEEN ?2 AND ?3`,
  `SELECT DISTINCT currency FROM refunds WHERE workspace_id = ?1 AND refunded_on BETWEEN ?2 AND ?3`,
  `SELECT DISTINCT currency FROM expenses WHERE workspace_id = ?1 AND incurred_on BETWEEN ?2 AND ?3`,
];

const DAYS = `WITH wanted(currency) AS (SELECT value FROM json_each(?1))
  SELECT r.currency, r.day, r.rate FROM exchange_rates r JOIN wanted w ON w.currency = r.currency
  WHERE r.day <= ?3 AND r.day >= coalesce((SELECT max(day) FROM exchange_rates p WHERE p.currency = r.currency AND p.day <= ?2), '')
  ORDER BY r.currency, r.day`;

// What a date before the first day kept converts at: that first day's rates (rates/history.ts).
const FIRST_DAY = `SELECT currency, rate FROM exchange_rates WHERE day = (SELECT min(day) FROM exchange_rates) AND currency IN (SELECT value FROM json_each(?1))`;

/** A rate with exactly six decimals and a decimal comma, rounded half away from zero. */
function kurs(rate: Ratio): string {
  const scaled = divRoundHalfAwayFromZero(rate.num * 1_000_000n, rate.den).toString().padStart(7, '0');
  return `${scaled.slice(0, -6)},${scaled.slice(-6)}`;
}

export async function toBaseIn(ctx: WorkspaceContext, base: string, period: Period): Promise<ToBase> {
  const d1 = clientOf(ctx.db);
  const found = await d1.batch<{ currency: string }>(CURRENCIES.map((sql) => d1.prepare(sql).bind(ctx.workspaceId, period.from, period.to)));
  const foreign = [...new Set(found.flatMap((result) => result.results.map((r) => r.currency)))].filter((code) => code !== base);
  if (!foreign.length) return () => null;
  const wanted = JSON.stringify([...foreign, base]);
  const [keptDays, firstDay] = await d1.batch<Record<string, unknown>>([d1.prepare(DAYS).bind(wanted, period.from, period.to), d1.prepare(FIRST_DAY).bind(wanted)]);
  const kept = keptDays!.results.map((r) => [r.currency, r.day, r.rate] as [string, string, number]);
  const first = new Map((firstDay!.results as { currency: string; rate: number }[]).map((r) => [r.currency, r.rate]));
  const days = new Map<string, { day: string; rate: number }[]>();
  for (const [currency, day, rate] of kept) {
    const list = days.get(currency) ?? [];
    if (list.at(-1)?.day !== day) list.push({ day, rate });
    days.set(currency, list);
  }
  // Only a currency no day was ever kept for needs the current rates (as the reports do).
  const current = [...foreign, base].some((code) => code !== 'USD' && !days.has(code) && !first.has(code)) ? await getRatesSnapshot(ctx.env) : null;
  const rateOf = (currency: string, date: string) => {
    const list = days.get(currency) ?? [];
    // The last day kept on or before the date (the list is in order of days).
    let [low, high] = [0, list.length];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (list[mid]!.day <= date) low = mid + 1;
      else high = mid;
    }
    const onOrBefore = low > 0 ? list[low - 1]!.rate : null;
    const rate = resolveDayRate(currency, onOrBefore, first, current);
    if (!rate) throw ratesUnavailable(`No exchange rate for ${currency} has been kept yet.`);
    return rate.rate;
  };
  // A day's bookings in one currency share its ratio and its Kurs: worked out once.
  const byDay = new Map<string, { ratio: Ratio; kurs: string }>();
  const exponent = exponentOf(base);
  return (amount, currency, date) => {
    if (currency === base) return null;
    const key = `${currency}|${date}`;
    let day = byDay.get(key);
    if (!day) {
      const rates = { [currency]: rateOf(currency, date), [base]: rateOf(base, date) };
      day = { ratio: crossRate(rates, currency, base), kurs: kurs(crossRate(rates, base, currency)) };
      byDay.set(key, day);
    }
    return { amount: convertMinor(amount, currency, base, day.ratio), currency: base, exponent, rate: day.kurs };
  };
}
