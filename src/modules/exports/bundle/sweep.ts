// The cron's net under the bundle queue (§22): an export whose message was lost would wait forever, so one still
// queued a while after it was last touched, or running under a lease that ran out (its job died), is sent again.
// Its claim (job.ts) makes a second message for one harmless. One past its deliveries is marked failed.
import { and, eq, lt, or } from 'drizzle-orm';
import { exportJobs } from '../../../db/schema';
import { createDb } from '../../../lib/db';
import { EXPORT_MAX_RETRIES, exportMessage } from './message';
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
