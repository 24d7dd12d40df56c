// The period bundle's queue job (§22): claims the export (queued, or running under a lease that ran out: a job
// whose worker died is taken up again), writes its ZIP into object storage entry by entry (zip-upload.ts) and
// marks it ready with its size; a redelivered message for an export already claimed or done does nothing. The
// multipart upload being written is kept on the row until it is completed or aborted, so that one left open by a
// delivery that died is aborted: by the next delivery that claims the export, or by the cron once it failed.
import { and, eq, lte, or, sql } from 'drizzle-orm';
import { exportJobs, workspaces } from '../../../db/schema';
import { systemContext } from '../../../lib/context';
import { randomToken } from '../../../lib/crypto';
import { createDb } from '../../../lib/db';
import { nowIso } from '../../../lib/time';
import type { ExportKind } from '../schemas';
import { BundleTooLarge, checkBundleFits } from './bounds';
import { csvFiles } from './csv-files';
import { addCreditNotes, addInvoices, addReceived } from './documents';
import { abortUpload } from './uploads';
import { ZipUpload } from './zip-upload';

/** The actor name of the job's work. */
export const EXPORTS_JOB = 'exports';

// A queue consumer may run 15 minutes; a claim older than that belongs to a job that is no longer running.
const LEASE_MS = 15 * 60_000;

/** Writes the export's ZIP if it is this delivery's to write. */
export async function runExport(env: Env, id: string, now = new Date()): Promise<void> {
  const db = createDb(env.DB);
  const [row] = await db
    .update(exportJobs)
    .set({ status: 'running', attempts: sql`${exportJobs.attempts} + 1`, leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(), updatedAt: now.toISOString() })
    .where(and(eq(exportJobs.id, id), or(eq(exportJobs.status, 'queued'), and(eq(exportJobs.status, 'running'), lte(exportJobs.leaseUntil, now.toISOString())))))
    .returning();
  if (!row) return;
  if (row.fileKey && row.uploadId) await abortUpload(env, row.fileKey, row.uploadId); // a delivery before this one died writing it
  const workspace = await db.query.workspaces.findFirst({ where: eq(workspaces.id, row.workspaceId) });
  if (!workspace) return; // deleted since: its exports went with it
  const ctx = systemContext(env, row.workspaceId, EXPORTS_JOB, workspace.timeZone);
  const period = { from: row.periodFrom, to: row.periodTo };
  const kinds = JSON.parse(row.kinds) as ExportKind[];
  // Unguessable, as a storage key must be (PLATFORM.md): nobody reaches it but the worker.
  const key = `exports/${row.workspaceId}/${row.id}-${randomToken(16)}.zip`;
  let zip: ZipUpload | undefined;
  try {
    await checkBundleFits(ctx, period, kinds);
    const upload = await env.FILES.createMultipartUpload(key, {
      httpMetadata: { contentType: 'application/zip', contentDisposition: `attachment; filename="export_${period.from}_${period.to}.zip"` },
    });
    zip = new ZipUpload(upload, new Date(row.createdAt));
    await db.update(exportJobs).set({ fileKey: key, uploadId: upload.uploadId }).where(and(eq(exportJobs.id, row.id), eq(exportJobs.status, 'running')));
    for (const file of await csvFiles(ctx, period, kinds)) await zip.addStream(file.name, file.bytes, true);
    const job = { ctx, workspace, period, origin: row.origin, zip };
    if (kinds.includes('invoices')) await addInvoices(job);
    if (kinds.includes('credit_notes')) await addCreditNotes(job);
    if (kinds.includes('expenses')) await addReceived(job);
    const object = await zip.finish();
    const done = nowIso();
    await db
      .update(exportJobs)
      .set({ status: 'ready', fileKey: key, uploadId: null, size: object.size, leaseUntil: null, completedAt: done, updatedAt: done })
      .where(and(eq(exportJobs.id, row.id), eq(exportJobs.status, 'running')));
  } catch (err) {
    await zip?.abort();
    const released = { fileKey: null, uploadId: null, leaseUntil: null, updatedAt: nowIso() };
    const running = and(eq(exportJobs.id, row.id), eq(exportJobs.status, 'running'));
    // Too large to write, now or on any later delivery: failed at once, saying why.
    if (err instanceof BundleTooLarge) {
      await db.update(exportJobs).set({ ...released, status: 'failed', failureReason: err.message, completedAt: released.updatedAt }).where(running);
      return;
    }
    // Released, so the message's next delivery claims it again at once rather than wait out the lease.
    await db.update(exportJobs).set({ ...released, status: 'queued' }).where(running);
    throw err;
  }
}

/** After the last delivery: failed, with why, rather than left running. */
export async function failExport(env: Env, id: string, reason: string): Promise<void> {
  const done = nowIso();
  await createDb(env.DB)
    .update(exportJobs)
    .set({ status: 'failed', failureReason: reason, leaseUntil: null, completedAt: done, updatedAt: done })
    .where(and(eq(exportJobs.id, id), or(eq(exportJobs.status, 'queued'), eq(exportJobs.status, 'running'))));
}
