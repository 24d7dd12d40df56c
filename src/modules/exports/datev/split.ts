// DATEV's import takes at most 99,999 lines a Buchungsstapel file (the header, the headings and 99,997 bookings:
// DATEV's interface guide; microtech's DATEV export "bei Datensätzen größer als 99.997 Zeilen in eine weitere Datei
// aufgeteilt"), and DATEV recommends one file per booking period (developer.datev.de, Formate/Buchungsstapel). A
// period with more bookings than one file holds is answered as several files, one per month, a month with more
// split into runs of days, and a single day with more cut into files of that one day.
//
// Which of these it is has to be known before the first byte is sent: one round trip counts, per day, at most how
// many bookings each kind of record makes (a booking per tax group, one per payment, …; a zero amount, which makes
// none, still counts, so the count is never below the bookings and no planned file overflows).
import type { WorkspaceContext } from '../../../lib/context';
import { clientOf } from '../../../lib/db';
import type { Period } from '../period';

/** DATEV's limit of lines a file: an object, so that a test can lower it. */
export const datevFileLimit = { lines: 99_999 };

/** How many bookings a file holds: its lines but the header and the headings. */
export const bookingsPerFile = () => datevFileLimit.lines - 2;

// A document makes a booking per tax group, one when it has none stored (bookings.ts, groupsOf).
const GROUPS = (alias: string) => `max(1, coalesce(json_array_length(${alias}.tax_breakdown), 0))`;

// An expense: a booking per tax group, and one for what the groups leave of its amount, when anything: counted as
// always one more, which is never below and saves working out each expense's groups' sum in JSON.
const EXPENSE_BOOKINGS = 'coalesce(json_array_length(e.tax_breakdown), 0) + 1';

// (day, bookings at most) per kind, from the indexes that start with the workspace and the date (read.ts's walks).
const PER_DAY = [
  `SELECT i.issue_date, sum(${GROUPS('i')}) FROM invoices i WHERE i.workspace_id = ?1 AND i.issue_date BETWEEN ?2 AND ?3 AND i.status <> 'draft' GROUP BY i.issue_date`,
  `SELECT c.issue_date, sum(${GROUPS('c')}) FROM credit_notes c WHERE c.workspace_id = ?1 AND c.issue_date BETWEEN ?2 AND ?3 GROUP BY c.issue_date`,
  `SELECT paid_on, count(*) FROM payments WHERE workspace_id = ?1 AND paid_on BETWEEN ?2 AND ?3 GROUP BY paid_on`,
  `SELECT refunded_on, count(*) FROM refunds WHERE workspace_id = ?1 AND refunded_on BETWEEN ?2 AND ?3 AND status <> 'failed' GROUP BY refunded_on`,
  `SELECT e.incurred_on, sum(${EXPENSE_BOOKINGS}) FROM expenses e WHERE e.workspace_id = ?1 AND e.incurred_on BETWEEN ?2 AND ?3 GROUP BY e.incurred_on`,
];

// A void's day is the workspace's (read.ts): counted per UTC hour and given to the day of the hour's start and of its
// end, both when a zone's half hour puts them on two days.
const VOIDS_PER_HOUR = `SELECT substr(i.voided_at, 1, 13), sum(${GROUPS('i')}) FROM invoices i WHERE i.workspace_id = ?1 AND i.status = 'void'
  AND i.voided_at BETWEEN date(?2, '-1 day') AND date(?3, '+1 day') || 'T99' GROUP BY substr(i.voided_at, 1, 13)`;

/** At most how many bookings each day of the period has. */
export async function bookingsPerDayAtMost(ctx: WorkspaceContext, period: Period, dayOf: (instant: string) => string): Promise<Map<string, number>> {
  const d1 = clientOf(ctx.db);
  const results = await d1.batch([...PER_DAY, VOIDS_PER_HOUR].map((sql) => d1.prepare(sql).bind(ctx.workspaceId, period.from, period.to)));
  const perDay = new Map<string, number>();
  const add = (day: string, count: number) => {
    if (day >= period.from && day <= period.to) perDay.set(day, (perDay.get(day) ?? 0) + count);
  };
  const rows = (i: number) => results[i]!.results.map((r) => Object.values(r as Record<string, unknown>) as [string, number]);
  for (let i = 0; i < PER_DAY.length; i++) for (const [day, count] of rows(i)) add(day, count);
  for (const [hour, count] of rows(PER_DAY.length)) {
    const [start, end] = [dayOf(`${hour}:00:00.000Z`), dayOf(`${hour}:59:59.999Z`)];
    add(start, count);
    if (end !== start) add(end, count);
  }
  return perDay;
}

/** Each day from `from` to `to`, `YYYY-MM-DD`. */
function* days({ from, to }: Period): Generator<string> {
  for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to; d.setUTCDate(d.getUTCDate() + 1)) yield d.toISOString().slice(0, 10);
}

/**
 * The files of the period: null when one holds all of it, else a period per file, in order and apart: each month
 * (within the period) that has bookings, and a month with more than a file holds cut into runs of days, a day with
 * more than a file holds on its own (export.ts cuts it into as many files of that day as it needs).
 */
export function planFiles(period: Period, perDay: Map<string, number>, limit = bookingsPerFile()): Period[] | null {
  let total = 0;
  for (const count of perDay.values()) total += count;
  if (total <= limit) return null;
  const months = new Map<string, string[]>();
  for (const day of days(period)) months.set(day.slice(0, 7), [...(months.get(day.slice(0, 7)) ?? []), day]);
  const files: Period[] = [];
  for (const monthDays of months.values()) {
    let run: { from: string; to: string; count: number } | null = null;
    const close = () => {
      if (run && run.count > 0) files.push({ from: run.from, to: run.to });
      run = null;
    };
    for (const day of monthDays) {
      const count = perDay.get(day) ?? 0;
      if (count > limit) {
        close();
        files.push({ from: day, to: day });
        continue;
      }
      if (run && run.count + count > limit) close();
      run ??= { from: day, to: day, count: 0 };
      run.to = day;
      run.count += count;
    }
    close();
  }
  return files;
}
