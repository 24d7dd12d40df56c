// GET /v1/exports/datev (§22): the checks, then the stream (export.ts): one file, or, when the period has more
// bookings than DATEV takes in a file (split.ts), a ZIP of several.
import { ApiError, type ErrorDetail } from '../../../errors';
import type { WorkspaceContext } from '../../../lib/context';
import { todayIn } from '../../../lib/time';
import { readAccounting } from '../../workspaces/accounting';
import { getWorkspace } from '../../workspaces/settings';
import { assertDatevPeriod, type Period } from '../period';
import { datevFileName, datevFiles, datevStream } from './export';
import { toBaseIn } from './rates';
import { bookingsPerDayAtMost, bookingsPerFile, planFiles } from './split';
import { zipStream } from './zip-stream';

export type DatevAnswer = { stream: ReadableStream<Uint8Array>; filename: string; contentType: string };

/** The Buchungsstapel of the period, or a 422 naming what the workspace's setting lacks or the period breaks. */
export async function datevExport(ctx: WorkspaceContext, period: Period): Promise<DatevAnswer> {
  const workspace = await getWorkspace(ctx);
  const setting = readAccounting(workspace.accounting);
  const missing: ErrorDetail[] = [];
  if (setting?.consultant_number == null) missing.push({ path: 'accounting.consultant_number', message: 'Set the consultant number (Beraternummer) in the workspace\'s accounting setting.' });
  if (setting?.client_number == null) missing.push({ path: 'accounting.client_number', message: 'Set the client number (Mandantennummer) in the workspace\'s accounting setting.' });
  if (!setting || missing.length) throw new ApiError('validation_failed', 'The DATEV export needs the workspace\'s accounting setting (PATCH /api/workspace).', missing);
  assertDatevPeriod(period, setting.fiscal_year_start);
  // The rates and the count of bookings read the same period apart: both batches are sent at once.
  const [toBase, perDay] = await Promise.all([
    toBaseIn(ctx, workspace.defaultCurrency, period),
    bookingsPerDayAtMost(ctx, period, (instant) => todayIn(ctx.timeZone, new Date(instant))),
  ]);
  const datev = { ...setting, consultant_number: setting.consultant_number!, client_number: setting.client_number! };
  const limit = bookingsPerFile();
  const files = planFiles(period, perDay, limit);
  if (!files) return { stream: datevStream(ctx, period, datev, workspace.defaultCurrency, toBase), filename: datevFileName(period), contentType: 'text/csv; charset=windows-1252' };
  const now = new Date();
  return {
    stream: zipStream(datevFiles(ctx, files, datev, workspace.defaultCurrency, toBase, limit, now), now),
    filename: datevFileName(period).replace(/\.csv$/, '.zip'),
    contentType: 'application/zip',
  };
}
