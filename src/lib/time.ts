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

/** Today's calendar date in an IANA time zone (what "today" is for a workspace). */
export function todayIn(timeZone: string, now = new Date()): string {
  if (timeZone === 'UTC') return now.toISOString().slice(0, 10);
  // Every zone's offset is whole minutes, so its date can only change on a minute: one answer per
  // zone and minute (a request asks several times, serialising each record).
  const minute = Math.floor(now.getTime() / 60_000);
  const known = todays.get(timeZone);
  if (known?.minute === minute) return known.date;
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  const date = format.format(now);
  todays.set(timeZone, { minute, date });
  return date;
}
