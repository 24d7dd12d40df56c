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

/** The whole file, as a stream: the header and headings first, then a chunk per page of records. */
export function datevStream(ctx: WorkspaceContext, period: Period, setting: DatevSetting, currency: string, toBase: ToBase, now = new Date()): ReadableStream<Uint8Array> {
  const header = headerLine({
    created: now,
    consultantNumber: setting.consultant_number,
    clientNumber: setting.client_number,
    fiscalYearStart: fiscalYearStartOf(period.from, setting.fiscal_year_start),
    from: period.from,
    to: period.to,
    currency,
    chartCode: CHARTS[setting.chart].code,
  });
  const pages = datevBookings(ctx, period, setting, toBase);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encodeCp1252(header + CRLF + COLUMN_HEADINGS + CRLF));
        return;
      }
      const next = await pages.next();
      if (next.done) {
        controller.close();
        return;
      }
      if (next.value.length) controller.enqueue(encodeCp1252(next.value.map((b) => bookingLine(b) + CRLF).join('')));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}
