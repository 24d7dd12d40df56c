// The cron's net under the bundle queue (§22): an export whose message was lost would wait forever, so one still
// queued a while after it was last touched, or running under a lease that ran out (its job died), is sent again.
// Its claim (job.ts) makes a second message for one harmless. One past its deliveries is marked failed.
// And a bundle is kept 24 hours from when it was ready (download.ts): then its file is removed and it is expired;
// a failed one whose job died writing it has its upload aborted.
import { and, eq, inArray, isNotNull, lt, lte, or } from 'drizzle-orm';
import { exportJobs } from '../../../db/schema';
import { createDb } from '../../../lib/db';
import { nowIso } from '../../../lib/time';
import { DOWNLOAD_TTL_SECONDS } from './download';
import { EXPORT_MAX_RETRIES, exportMessage } from './message';
import { abortUpload } from './uploads';
import { failExport } from './job';

/** How long a queued export waits for its message before the sweep sends another. */
export const STRANDED_AFTER_MS = 15 * 60_000;
const PER_RUN = 50;

export async function sweepStrandedExports(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const stale = new Date(now - STRANDED_AFTER_MS).toISOString();
  const stranded = await db
    .select({ id: exportJobs.id, attempts: exportJobs.attempts })
    .from(exportJobs)
    .where(or(and(eq(exportJobs.status, 'queued'), lt(exportJobs.updatedAt, stale)), and(eq(exportJobs.status, 'running'), lt(exportJobs.leaseUntil, new Date(now).toISOString()))))
    .limit(PER_RUN);
  for (const row of stranded) {
    if (row.attempts > EXPORT_MAX_RETRIES) await failExport(env, row.id, 'The bundle could not be written; please ask for it again.');
    else await env.EXPORTS_QUEUE.send(exportMessage(row.id, env));
  }
  return stranded.length;
}

/**
 * Removes the files of bundles ready more than 24 hours ago, at most PER_RUN a run (the next run carries on), and
 * marks them expired. The file goes first: a run that stops between the two leaves a bundle the next run removes
 * again, harmlessly, never a ready bundle without its file.
 */
export async function sweepExpiredExports(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const readyBefore = new Date(now - DOWNLOAD_TTL_SECONDS * 1000).toISOString();
  const expired = await db
    .select({ id: exportJobs.id, fileKey: exportJobs.fileKey })
    .from(exportJobs)
    .where(and(eq(exportJobs.status, 'ready'), lte(exportJobs.completedAt, readyBefore), isNotNull(exportJobs.fileKey)))
    .limit(PER_RUN);
  if (!expired.length) return 0;
  await env.FILES.delete(expired.map((row) => row.fileKey!));
  const ids = expired.map((row) => row.id);
  await db.update(exportJobs).set({ status: 'expired', fileKey: null, updatedAt: nowIso() }).where(and(inArray(exportJobs.id, ids), eq(exportJobs.status, 'ready')));
  return expired.length;
}

/**
 * Aborts the multipart uploads failed exports left open (their job died writing, and the export failed after its
 * last delivery), at most PER_RUN a run. The upload is aborted before the row forgets it, so a run that stops
 * between the two aborts it again next time, harmlessly.
 */
export async function abortLeftUploads(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const left = await db
    .select({ id: exportJobs.id, fileKey: exportJobs.fileKey, uploadId: exportJobs.uploadId })
    .from(exportJobs)
    .where(and(eq(exportJobs.status, 'failed'), isNotNull(exportJobs.uploadId)))
    .limit(PER_RUN);
  if (!left.length) return 0;
  for (const row of left) if (row.fileKey) await abortUpload(env, row.fileKey, row.uploadId!);
  await db.update(exportJobs).set({ fileKey: null, uploadId: null, updatedAt: nowIso() }).where(and(inArray(exportJobs.id, left.map((row) => row.id)), eq(exportJobs.status, 'failed')));
  return left.length;
}
