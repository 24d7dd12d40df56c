// Cron: transfers must never be stranded. A pending transfer whose enqueue failed (or whose message
// was lost) and a processing one whose consumer died long ago are put on the queue again.
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { createDb } from '../../lib/db';
import { transfersJobContext } from './job';
import { enqueueTransfers } from './service';

export const STRANDED_AFTER_MS = 2 * 60_000;
const SWEEP_LIMIT = 100; // a sendBatch's worth of messages, however they split by workspace

export async function sweepStrandedTransfers(env: Env): Promise<string[]> {
  const before = new Date(Date.now() - STRANDED_AFTER_MS).toISOString();
  // The one query across workspaces: the sweep looks after all of them. Everything it then
  // writes is done in the context of the transfer's own workspace.
  const stranded = await createDb(env.DB)
    .select({ id: transfers.id, workspaceId: transfers.workspaceId })
    .from(transfers)
    .where(
      or(
        and(eq(transfers.status, 'pending'), lt(transfers.updatedAt, before), or(isNull(transfers.enqueuedAt), lt(transfers.enqueuedAt, before))),
        and(eq(transfers.status, 'processing'), lt(transfers.leaseUntil, before)),
      ),
    )
    .orderBy(asc(transfers.updatedAt))
    .limit(SWEEP_LIMIT);
  const byWorkspace = new Map<string, string[]>();
  for (const row of stranded) byWorkspace.set(row.workspaceId, [...(byWorkspace.get(row.workspaceId) ?? []), row.id]);
  for (const [workspaceId, ids] of byWorkspace) await enqueueTransfers(transfersJobContext(env, workspaceId), ids);
  return stranded.map((row) => row.id);
}
