// Cron: transfers must never be stranded. A pending transfer whose enqueue failed (or whose message
// was lost) and a processing one whose consumer died long ago are put on the queue again.
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { createDb } from '../../lib/db';
import { enqueueTransfers } from './service';

export const STRANDED_AFTER_MS = 2 * 60_000;
const SWEEP_LIMIT = 100; // one sendBatch

export async function sweepStrandedTransfers(env: Env): Promise<string[]> {
  const db = createDb(env.DB);
  const before = new Date(Date.now() - STRANDED_AFTER_MS).toISOString();
  const stranded = await db
    .select({ id: transfers.id })
    .from(transfers)
    .where(
      or(
        and(eq(transfers.status, 'pending'), lt(transfers.updatedAt, before), or(isNull(transfers.enqueuedAt), lt(transfers.enqueuedAt, before))),
        and(eq(transfers.status, 'processing'), lt(transfers.leaseUntil, before)),
      ),
    )
    .orderBy(asc(transfers.updatedAt))
    .limit(SWEEP_LIMIT);
  await enqueueTransfers(db, env, stranded.map((r) => r.id));
  return stranded.map((r) => r.id);
}
