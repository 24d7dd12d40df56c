// The dates of §12, from start_date and n, never from the date before: a table of the edges.
import { describe, expect, it } from 'vitest';
import { firstPeriodOnOrAfter, issueDate, periodExists, type Schedule, startOfDayIn, todayIn, upcomingDates } from '../../src/modules/recurring-invoices/schedule';

const schedule = (startDate: string, interval: Schedule['interval'], intervalCount = 1, extra: Partial<Schedule> = {}): Schedule => ({
  startDate, interval, intervalCount, endDate: null, maxOccurrences: null, ...extra,
});
const dates = (s: Schedule, count: number) => Array.from({ length: count }, (_, n) => issueDate(s, n));

describe('issue dates', () => {
  it.each([
    ['Jan 31 monthly, non-leap year', schedule('2027-01-31', 'month'), ['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']],
    ['Jan 31 monthly, leap year', schedule('2028-01-31', 'month'), ['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30']],
    ['Feb 29 yearly', schedule('2028-02-29', 'year'), ['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']],
    ['every 3 months from the 30th', schedule('2026-11-30', 'month', 3), ['2026-11-30', '2027-02-28', '2027-05-30', '2027-08-30']],
    ['weekly across both DST changes (dates are calendar dates)', schedule('2027-03-08', 'week'), ['2027-03-08', '2027-03-15', '2027-03-22', '2027-03-29', '2027-04-05']],
    ['weekly across the autumn change', schedule('2027-10-25', 'week', 1), ['2027-10-25', '2027-11-01', '2027-11-08']],
    ['every 2 weeks', schedule('2026-12-28', 'week', 2), ['2026-12-28', '2027-01-11', '2027-01-25']],
  ])('%s', (_name, s, expected) => {
    expect(dates(s, expected.length)).toEqual(expected);
  });

  it('ends with max_occurrences and on an end_date that is itself an issue date', () => {
    const capped = schedule('2027-01-15', 'month', 1, { maxOccurrences: 3 });
    expect(upcomingDates(capped, 0, 0, 5)).toEqual(['2027-01-15', '2027-02-15', '2027-03-15']);
    expect(periodExists(capped, 3, 3)).toBe(false);
    // max_occurrences counts invoices: periods skipped while paused do not use it up.
    expect(upcomingDates(capped, 5, 1, 5)).toEqual(['2027-06-15', '2027-07-15']);
    const ending = schedule('2027-01-15', 'month', 1, { endDate: '2027-03-15' });
    expect(upcomingDates(ending, 1, 1, 5)).toEqual(['2027-02-15', '2027-03-15']);
    expect(upcomingDates(ending, 3, 3)).toEqual([]);
  });

  it('skips to the first date on or after a day (resuming)', () => {
    const s = schedule('2027-01-31', 'month');
    expect(firstPeriodOnOrAfter(s, '2027-03-01')).toBe(2);
    expect(issueDate(s, 2)).toBe('2027-03-31');
    expect(firstPeriodOnOrAfter(s, '2027-02-28')).toBe(1);
  });
});

describe('today in a time zone', () => {
  // 2027-03-14 10:30 UTC: already the 15th at UTC+14, still the 13th at UTC−11.
  const instant = new Date('2027-03-14T10:30:00Z');
  it.each([
    ['Pacific/Kiritimati', '2027-03-15'],
    ['Pacific/Pago_Pago', '2027-03-13'],
    ['UTC', '2027-03-14'],
    ['America/New_York', '2027-03-14'],
    ['Europe/London', '2027-03-14'],
  ])('%s', (zone, expected) => {
    expect(todayIn(zone, instant)).toBe(expected);
  });

  it('turns the day at local midnight across DST in New York and London', () => {
    // New York springs forward on 2027-03-14 at 02:00 local (UTC−5 → UTC−4).
    expect(todayIn('America/New_York', new Date('2027-03-14T03:59:00Z'))).toBe('2027-03-13');
    expect(todayIn('America/New_York', new Date('2027-03-15T03:59:00Z'))).toBe('2027-03-14');
    expect(todayIn('America/New_York', new Date('2027-03-15T04:01:00Z'))).toBe('2027-03-15');
    // London falls back on 2027-10-31 (UTC+1 → UTC+0).
    expect(todayIn('Europe/London', new Date('2027-10-30T23:30:00Z'))).toBe('2027-10-31');
    expect(todayIn('Europe/London', new Date('2027-10-31T23:30:00Z'))).toBe('2027-10-31');
  });

  it.each([
    // The cron issues a date's period from the moment that day begins there.
    ['2027-03-14', 'America/New_York', '2027-03-14T05:00:00.000Z'], // the day DST starts: midnight is still EST
    ['2027-03-15', 'America/New_York', '2027-03-15T04:00:00.000Z'],
    ['2027-10-31', 'Europe/London', '2027-10-30T23:00:00.000Z'], // the day DST ends: midnight is still BST
    ['2027-11-01', 'Europe/London', '2027-11-01T00:00:00.000Z'],
    ['2027-03-15', 'Pacific/Kiritimati', '2027-03-14T10:00:00.000Z'],
    ['2027-03-15', 'Pacific/Pago_Pago', '2027-03-15T11:00:00.000Z'],
  ])('%s begins in %s at %s', (day, zone, expected) => {
    expect(startOfDayIn(day, zone)).toBe(expected);
  });
});
