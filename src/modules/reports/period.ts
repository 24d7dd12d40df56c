// A report's period (§22): `from` .. `to`, both included, in order, and at most a year long, so a
// report's cost has a bound (its rows are read per day; see profit-and-loss.ts).
import { invalidField } from '../../errors';
import { addDays } from '../../lib/time';
import { firstOfNextMonth } from '../dashboard/period';

export type Period = { from: string; to: string };

/** A report covers at most this many days: a year, leap or not. */
export const MAX_REPORT_DAYS = 366;

const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/** The period as asked, or a 422 naming what is wrong with it. */
export function reportPeriod(from: string, to: string): Period {
  if (from > to) throw invalidField('to', '`to` must not be before `from`.');
  if (daysBetween(from, to) + 1 > MAX_REPORT_DAYS) {
    throw invalidField('to', `A report covers at most ${MAX_REPORT_DAYS} days; \`to\` is at most ${addDays(from, MAX_REPORT_DAYS - 1)} for this \`from\`.`);
  }
  return { from, to };
}

export const monthOf = (day: string) => day.slice(0, 7);
export const quarterOf = (day: string) => `${day.slice(0, 4)}-Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;

/** Every month (`2026-03`) or quarter (`2026-Q1`) the period touches, in order. */
export function periodKeys(period: Period, keyOf: (day: string) => string): string[] {
  const keys: string[] = [];
  for (let month = `${period.from.slice(0, 7)}-01`; month <= period.to; month = firstOfNextMonth(month)) {
    const key = keyOf(month);
    if (keys.at(-1) !== key) keys.push(key);
  }
  return keys;
}
