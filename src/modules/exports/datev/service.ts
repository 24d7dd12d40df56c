// GET /v1/exports/datev (§22): the checks, then the stream (export.ts).
import { ApiError, type ErrorDetail } from '../../../errors';
import type { WorkspaceContext } from '../../../lib/context';
import { readAccounting } from '../../workspaces/accounting';
import { getWorkspace } from '../../workspaces/settings';
import { assertDatevPeriod, type Period } from '../period';
import { datevFileName, datevStream } from './export';
import { toBaseIn } from './rates';

/** The Buchungsstapel of the period, or a 422 naming what the workspace's setting lacks or the period breaks. */
export async function datevExport(ctx: WorkspaceContext, period: Period): Promise<{ stream: ReadableStream<Uint8Array>; filename: string }> {
  const workspace = await getWorkspace(ctx);
  const setting = readAccounting(workspace.accounting);
  const missing: ErrorDetail[] = [];
  if (setting?.consultant_number == null) missing.push({ path: 'accounting.consultant_number', message: 'Set the consultant number (Beraternummer) in the workspace\'s accounting setting.' });
  if (setting?.client_number == null) missing.push({ path: 'accounting.client_number', message: 'Set the client number (Mandantennummer) in the workspace\'s accounting setting.' });
  if (!setting || missing.length) throw new ApiError('validation_failed', 'The DATEV export needs the workspace\'s accounting setting (PATCH /api/workspace).', missing);
  assertDatevPeriod(period, setting.fiscal_year_start);
  const toBase = await toBaseIn(ctx, workspace.defaultCurrency, period);
  const stream = datevStream(ctx, period, { ...setting, consultant_number: setting.consultant_number!, client_number: setting.client_number! }, workspace.defaultCurrency, toBase);
  return { stream, filename: datevFileName(period) };
}
