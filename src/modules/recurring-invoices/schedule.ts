// When a recurring invoice issues (§12). The n-th issue date is start_date + n × interval, always
// computed from start_date (never from the date before), with date-fns clamping the day to the end
// of a shorter month: Jan 31 monthly gives Feb 28 (29), Mar 31, Apr 30. Dates are calendar dates;
// "today" is judged in the schedule's IANA time zone (lib/time). The API's `upcoming` and
// `next_issue_date` and the cron all use these functions.
import { addMonths, addWeeks, addYears } from 'date-fns';
import { LATEST_DATE } from '../../lib/schemas';
import { addDays } from '../../lib/time';

export type Interval = 'week' | 'month' | 'year';
export type Schedule = {
  startDate: string; interval: Interval; intervalCount: number; endDate: string | null; maxOccurrences: number | null;
  /** Each invoice's due date is its issue date plus this many days. */
  dueInDays?: number;
};

const ADD = { week: addWeeks, month: addMonths, year: addYears } as const;

/** A YYYY-MM-DD date as a Date at UTC midnight, and back, so no time zone shifts the day. */
const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date) => date.toISOString().slice(0, 10);

/** The date of period n (0 is start_date). */
export function issueDate(schedule: Schedule, n: number): string {
  // date-fns works in the local zone of the Date; Workers run in UTC, and a UTC-midnight Date keeps
  // its calendar day through month and year arithmetic there.
  return toDay(ADD[schedule.interval](toDate(schedule.startDate), n * schedule.intervalCount));
}

/**
 * Whether period n comes, with `issued` invoices issued before it: max_occurrences counts invoices,
 * so periods skipped while paused do not use it up; end_date bounds the date, and so does
 * 2199-12-31 (for the invoice's due date too).
 */
export function periodExists(schedule: Schedule, n: number, issued: number): boolean {
  if (schedule.maxOccurrences !== null && issued >= schedule.maxOccurrences) return false;
  const date = issueDate(schedule, n);
  // No date the API makes lies past the last calendar date it takes (§1): the schedule ends there.
  if (addDays(date, schedule.dueInDays ?? 0) > LATEST_DATE) return false;
  return schedule.endDate === null || date <= schedule.endDate;
}

/** Up to `count` issue dates from period n on, `issued` invoices issued so far. */
export function upcomingDates(schedule: Schedule, n: number, issued: number, count = 3): string[] {
  const dates: string[] = [];
  for (let i = 0; dates.length < count && periodExists(schedule, n + i, issued + i); i++) dates.push(issueDate(schedule, n + i));
  return dates;
}

/** The first period on or after `day` (resuming skips what passed while paused). */
export function firstPeriodOnOrAfter(schedule: Schedule, day: string, from = 0): number {
  let n = from;
  while (issueDate(schedule, n) < day) n++;
  return n;
}

/** Today in a time zone; the moment `day` begins there, as a UTC ISO timestamp: when that day's period is due. */
export { startOfDayIn, todayIn } from '../../lib/time';
