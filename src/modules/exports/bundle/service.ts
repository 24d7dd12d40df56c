// POST /v1/exports and GET /v1/exports/{id} (§22): a bundle is asked for, queued, and read back with a fresh
// download link once it is ready.
import { and, eq } from 'drizzle-orm';
import { exportJobs } from '../../../db/schema';
import { notFound } from '../../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../../lib/context';
import { newId } from '../../../lib/ids';
import { nowIso } from '../../../lib/time';
import { assertBundlePeriod } from '../period';
import { EXPORT_KINDS, type ExportKind } from '../schemas';
import { assertBundleFits } from './bounds';
import { downloadLink, expiryOf } from './download';
import { exportMessage } from './message';

export type ExportRow = typeof exportJobs.$inferSelect;

export async function requestExport(ctx: ServiceContext, input: { from: string; to: string; kinds?: ExportKind[] }, origin: string): Promise<ExportRow> {
  assertBundlePeriod(input);
  // In the order the API lists them, whatever order they were sent in.
  const kinds = EXPORT_KINDS.filter((kind) => !input.kinds || input.kinds.includes(kind));
  await assertBundleFits(ctx, input, kinds);
  const now = nowIso();
  const row: ExportRow = {
    id: newId('export'), workspaceId: ctx.workspaceId, userId: ctx.userId, status: 'queued', periodFrom: input.from, periodTo: input.to,
    kinds: JSON.stringify(kinds), origin, fileKey: null, uploadId: null, size: null, attempts: 0, leaseUntil: null, failureReason: null, completedAt: null,
    createdAt: now, updatedAt: now,
  };
  await ctx.db.insert(exportJobs).values(row);
  try {
    await ctx.env.EXPORTS_QUEUE.send(exportMessage(row.id, ctx.env));
  } catch (err) {
    // Without a message it would wait forever: it fails at once, saying why.
    console.error(JSON.stringify({ level: 'error', message: 'export enqueue failed', export_id: row.id, reason: String(err) }));
    const failed = { status: 'failed' as const, failureReason: 'The export could not be queued; please ask for it again.', completedAt: nowIso(), updatedAt: nowIso() };
    await ctx.db.update(exportJobs).set(failed).where(and(eq(exportJobs.id, row.id), eq(exportJobs.status, 'queued')));
    return { ...row, ...failed };
  }
  return row;
}

export async function getExport(ctx: WorkspaceContext, id: string): Promise<ExportRow> {
  const row = await ctx.db.query.exportJobs.findFirst({ where: and(eq(exportJobs.id, id), inWorkspace(ctx, exportJobs)) });
  if (!row) throw notFound('Export');
  return row;
}

/** The export as the API shows it: a ready one with its link, valid 24 h from when it was ready; then expired. */
export async function serializeExport(env: Env, row: ExportRow, origin: string, now = Date.now()) {
  // Expired from the moment its link is, though the cron removes its file a little later.
  const kept = row.completedAt !== null && (row.status === 'ready' || row.status === 'expired');
  const status = kept && expiryOf(row.completedAt!) * 1000 <= now ? 'expired' : row.status;
  const link = status === 'ready' ? await downloadLink(env, origin, row.id, row.completedAt!) : null;
  return {
    id: row.id,
    status,
    from: row.periodFrom,
    to: row.periodTo,
    kinds: JSON.parse(row.kinds) as ExportKind[],
    size: row.size,
    download_url: link?.url ?? null,
    expires_at: kept ? new Date(expiryOf(row.completedAt!) * 1000).toISOString() : null,
    failure_reason: row.failureReason,
    created_at: row.createdAt,
    completed_at: row.completedAt,
  };
}
