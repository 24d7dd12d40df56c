// Timestamps are RFC 3339 UTC with milliseconds; calendar dates are YYYY-MM-DD (UTC).
export const nowIso = (): string => new Date().toISOString();

export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** True for a real calendar day in YYYY-MM-DD form (rejects 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

// Building an Intl.DateTimeFormat costs far more than using one: keep one per time zone.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const todays = new Map<string, { minute: number; date: string }>();

function dateFormatIn(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format;
}

/** Today's calendar date in an IANA time zone (what "today" is for a workspace). */
export function todayIn(timeZone: string, now = new Date()): string {
  if (timeZone === 'UTC') return now.toISOString().slice(0, 10);
  // Every zone's offset is whole minutes, so its date can only change on a minute: one answer per
  // zone and minute (a request asks several times, serialising each record).
  const minute = Math.floor(now.getTime() / 60_000);
  const known = todays.get(timeZone);
  if (known?.minute === minute) return known.date;
  const date = dateFormatIn(timeZone).format(now);
  todays.set(timeZone, { minute, date });
  return date;
}

/**
 * The first instant (UTC, RFC 3339) of calendar day `date` in `timeZone`: when a day starts there (a schedule's
 * issue time), and the timestamp a stored time is compared with to say on which side of a day it falls. Zones
 * are whole minutes from UTC, between −12 h and +14 h, and a day's start is found among those minutes, so a day
 * whose midnight a clock change skips starts at its first minute that exists.
 */
export function startOfDayIn(date: string, timeZone: string): string {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  if (timeZone === 'UTC') return new Date(utcMidnight).toISOString();
  const format = dateFormatIn(timeZone);
  const dayAt = (minute: number) => format.format(new Date(minute * 60_000));
  let low = utcMidnight / 60_000 - 14 * 60 - 1; // still the day before there
  let high = utcMidnight / 60_000 + 12 * 60; // already `date` there
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (dayAt(mid) >= date) high = mid;
    else low = mid;
  }
  return new Date(high * 60_000).toISOString();
}
