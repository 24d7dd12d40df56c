// The Buchungsstapel of a period as a stream of Windows-1252 bytes: the header and the column headings, then the
// bookings of each kind of record a page at a time (read.ts), so a year of a busy workspace is never held whole.
import type { WorkspaceContext } from '../../../lib/context';
import { todayIn } from '../../../lib/time';
import type { AccountingValue } from '../../workspaces/accounting';
import type { Period } from '../period';
import { fiscalYearStartOf } from '../period';
import { accountsOf, documentBookings, expenseBookings, moneyBooking, type ToBase } from './bookings';
import { CHARTS } from './charts';
import { encodeCp1252 } from './cp1252';
import { bookingLine, COLUMN_HEADINGS, headerLine } from './format';
import { creditNotesIn, expensesIn, invoicesIn, paymentsIn, refundsIn, voidsIn } from './read';
import type { Booking } from './records';
import type { ZipFile } from './zip-stream';

export type DatevSetting = AccountingValue & { consultant_number: number; client_number: number };

const CRLF = '\r\n';

/** The file name DATEV's import looks for: `EXTF_` first. */
export const datevFileName = (period: Period) => `EXTF_Buchungsstapel_${period.from.replace(/-/g, '')}_${period.to.replace(/-/g, '')}.csv`;

/** Every booking of the period, a page of records at a time. */
export async function* datevBookings(ctx: WorkspaceContext, period: Period, setting: AccountingValue, toBase: ToBase): AsyncGenerator<Booking[]> {
  const accounts = accountsOf(setting);
  for await (const page of invoicesIn(ctx, period)) yield page.flatMap((doc) => documentBookings(doc, 'invoice', accounts, toBase));
  const dayOf = (instant: string) => todayIn(ctx.timeZone, new Date(instant));
  for await (const page of voidsIn(ctx, period, dayOf)) yield page.flatMap((doc) => documentBookings(doc, 'void', accounts, toBase));
  for await (const page of creditNotesIn(ctx, period)) yield page.flatMap((doc) => documentBookings(doc, 'credit_note', accounts, toBase));
  for await (const page of paymentsIn(ctx, period)) yield page.flatMap((p) => moneyBooking(p, 'payment', accounts, toBase) ?? []);
  for await (const page of refundsIn(ctx, period)) yield page.flatMap((r) => moneyBooking(r, 'refund', accounts, toBase) ?? []);
  for await (const page of expensesIn(ctx, period)) yield page.flatMap((e) => expenseBookings(e, accounts, toBase));
}

/** Line 1 and line 2 of a file of the period `file` (all of a period's files lie in its one fiscal year). */
function headOf(file: Period, setting: DatevSetting, currency: string, now: Date): Uint8Array {
  const header = headerLine({
    created: now,
    consultantNumber: setting.consultant_number,
    clientNumber: setting.client_number,
    fiscalYearStart: fiscalYearStartOf(file.from, setting.fiscal_year_start),
    from: file.from,
    to: file.to,
    currency,
    chartCode: CHARTS[setting.chart].code,
  });
  return encodeCp1252(header + CRLF + COLUMN_HEADINGS + CRLF);
}

const linesOf = (bookings: Booking[]) => encodeCp1252(bookings.map((b) => bookingLine(b) + CRLF).join(''));

/** The whole file, as a stream: the header and headings first, then a chunk per page of records. */
export function datevStream(ctx: WorkspaceContext, period: Period, setting: DatevSetting, currency: string, toBase: ToBase, now = new Date()): ReadableStream<Uint8Array> {
  const head = headOf(period, setting, currency, now);
  const pages = datevBookings(ctx, period, setting, toBase);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(head);
        return;
      }
      const next = await pages.next();
      if (next.done) {
        controller.close();
        return;
      }
      if (next.value.length) controller.enqueue(linesOf(next.value));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/**
 * The bookings of `pages` cut into runs of at most `limit`, each run's pages read while it is written: the next run
 * is asked for only once the one before has been read to its end. No run is empty.
 */
async function* runsOf(pages: AsyncIterator<Booking[]>, limit: number): AsyncGenerator<AsyncGenerator<Booking[]>> {
  let carry: Booking[] = [];
  let ended = false;
  async function* run(): AsyncGenerator<Booking[]> {
    for (let count = 0; count < limit; ) {
      if (!carry.length) {
        const next = await pages.next();
        if (next.done) return void (ended = true);
        carry = next.value;
        continue;
      }
      const taken = carry.slice(0, limit - count);
      carry = carry.slice(taken.length);
      count += taken.length;
      yield taken;
    }
  }
  while (!ended) {
    if (!carry.length) {
      const next = await pages.next();
      if (next.done) return;
      carry = next.value;
      continue;
    }
    yield run();
  }
}

/** `EXTF_Buchungsstapel_<from>_<to>_<nnn>.csv`: the file's own period, and its place among the files. */
export const splitFileName = (file: Period, n: number) => datevFileName(file).replace(/\.csv$/, `_${String(n).padStart(3, '0')}.csv`);

/**
 * The period as several files (split.ts planned them), for a ZIP: each planned period's bookings, a file of at most
 * `limit` of them (a planned period holds more only when it is a single day), its header dated by its own period.
 */
export async function* datevFiles(ctx: WorkspaceContext, files: Period[], setting: DatevSetting, currency: string, toBase: ToBase, limit: number, now = new Date()): AsyncGenerator<ZipFile> {
  let n = 0;
  for (const file of files) {
    const pages = datevBookings(ctx, file, setting, toBase);
    for await (const run of runsOf(pages, limit)) {
      const head = headOf(file, setting, currency, now);
      yield { name: splitFileName(file, ++n), chunks: (async function* () {
        yield head;
        for await (const bookings of run) yield linesOf(bookings);
      })() };
    }
  }
}
