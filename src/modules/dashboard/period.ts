// A period split into the whole months the monthly roll-ups answer, and the days at either end
// that must be read from the rows themselves. Empty parts are ranges that match nothing, so the
// queries keep one shape.
import { addDays } from '../../lib/time';

export type Period = { from: string; to: string };
export type PeriodParts = { months: [string, string]; head: [string, string]; tail: [string, string] };

const NOTHING: [string, string] = ['9999-12-31', '0000-01-01'];
const NO_MONTHS: [string, string] = ['9999-12', '0000-01'];

const monthOf = (date: string) => date.slice(0, 7);
/** The first day of the month after `date`'s. */
export const firstOfNextMonth = (date: string) => {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};
const lastOfMonth = (date: string) => addDays(firstOfNextMonth(date), -1);

export function splitPeriod({ from, to }: Period): PeriodParts {
  const firstWhole = from.endsWith('-01') ? from : firstOfNextMonth(from);
  const lastWholeEnd = to === lastOfMonth(to) ? to : addDays(`${monthOf(to)}-01`, -1);
  if (firstWhole > lastWholeEnd) return { months: NO_MONTHS, head: [from, to], tail: NOTHING };
  return {
    months: [monthOf(firstWhole), monthOf(lastWholeEnd)],
    head: from < firstWhole ? [from, addDays(firstWhole, -1)] : NOTHING,
    tail: to > lastWholeEnd ? [addDays(lastWholeEnd, 1), to] : NOTHING,
  };
}
