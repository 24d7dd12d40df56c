// The period an export covers, and its limits (§22): `from` on or before `to`; a DATEV batch within one fiscal
// year and one calendar year (DATEV reads each booking's year from the header: its dates are DDMM, and it refuses a
// batch whose "Datum vom" and "Datum bis" lie in two calendar years, #REW04404); a bundle at most a year long.
import { invalidField } from '../../errors';

/** A bundle covers at most 366 days, so a year (leap or not) fits in one. */
export const MAX_BUNDLE_DAYS = 366;

export type Period = { from: string; to: string };

/** `YYYY-MM-DD` of the first day of the fiscal year (starting on `monthDay`, `MM-DD`) that `date` falls in. */
export function fiscalYearStartOf(date: string, monthDay: string): string {
  const year = Number(date.slice(0, 4));
  return date.slice(5) >= monthDay ? `${year}-${monthDay}` : `${year - 1}-${monthDay}`;
}

const nextYear = (date: string) => `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;

/** 422 naming `from` or `to` unless the period is one DATEV batch can hold. */
export function assertDatevPeriod({ from, to }: Period, fiscalYearStart: string): void {
  if (from > to) throw invalidField('from', '`from` must not be after `to`.');
  const start = fiscalYearStartOf(from, fiscalYearStart);
  if (to >= nextYear(start)) {
    throw invalidField('to', `A DATEV batch covers one fiscal year: the one from ${start} ends before ${nextYear(start)}.`);
  }
  if (to.slice(0, 4) !== from.slice(0, 4)) {
    throw invalidField('to', 'A DATEV batch lies within one calendar year (its dates carry no year); export each year\'s part on its own.');
  }
}

export function assertBundlePeriod({ from, to }: Period): void {
  if (from > to) throw invalidField('from', '`from` must not be after `to`.');
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_BUNDLE_DAYS) throw invalidField('to', `A bundle covers at most ${MAX_BUNDLE_DAYS} days.`);
}
