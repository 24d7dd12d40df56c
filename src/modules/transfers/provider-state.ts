// What a payout provider later says about a transfer it holds, whether it comes by webhook
// (Wise's transfers#state-change) or from the cron asking (poll below): an end state settles the
// transfer through finish(), guarded like every other ending, so a state reported twice, by both
// roads, or late, settles it once and writes one event; any other state is noted and nothing more.
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { finish } from './consumer';
import { transfersJobContext } from './job';
import { workspaceWise } from './payout-connection';
import { AWAITING_FUNDS, wiseEnding } from './providers/wise';
import type { TransferRow } from './service';

export type StateOutcome = 'settled' | 'noted' | 'unchanged';

export async function applyProviderState(ctx: WorkspaceContext, row: TransferRow, state: string): Promise<StateOutcome> {
  if (row.status !== 'processing') return 'unchanged';
  const ending = wiseEnding(state);
  if (!ending) {
    if (state === row.providerStatus) return 'unchanged';
    await ctx.db
      .update(transfers)
      .set({ providerStatus: state })
      .where(and(eq(transfers.id, row.id), inWorkspace(ctx, transfers), eq(transfers.status, 'processing')));
    return 'noted';
  }
  const settled = await finish(ctx, row, ending.status === 'completed' ? { status: 'completed', payoutId: row.providerTransferId ?? row.id } : ending);
  return settled ? 'settled' : 'unchanged';
}

/** The workspace's transfer that Wise knows by `providerTransferId`, on this database. */
export async function findWiseTransfer(env: Env, providerTransferId: string) {
  const [row] = await createDb(env.DB)
    .select()
    .from(transfers)
    .where(and(eq(transfers.provider, 'wise'), eq(transfers.providerTransferId, providerTransferId)));
  return row && { ctx: transfersJobContext(env, row.workspaceId), row };
}

const POLL_LIMIT = 50;

/**
 * Cron, the fallback when a webhook does not come: asks Wise about each transfer it holds that has
 * not ended, and applies the answer as the webhook would have. A Wise that does not answer now is
 * asked again on the next run.
 */
export async function pollTransfersInFlight(env: Env): Promise<number> {
  const rows = await createDb(env.DB)
    .select()
    .from(transfers)
    .where(and(eq(transfers.provider, 'wise'), eq(transfers.status, 'processing'), isNotNull(transfers.providerTransferId), ne(transfers.providerStatus, AWAITING_FUNDS)))
    .orderBy(asc(transfers.updatedAt))
    .limit(POLL_LIMIT);
  let settled = 0;
  const byWorkspace = new Map<string, TransferRow[]>();
  for (const row of rows) byWorkspace.set(row.workspaceId, [...(byWorkspace.get(row.workspaceId) ?? []), row]);
  for (const [workspaceId, inFlight] of byWorkspace) {
    const ctx = transfersJobContext(env, workspaceId);
    const wise = await workspaceWise(ctx);
    if (!wise) continue;
    for (const row of inFlight) {
      try {
        if ((await applyProviderState(ctx, row, await wise.transferState(row.providerTransferId!))) === 'settled') settled++;
      } catch (err) {
        console.warn(JSON.stringify({ level: 'warn', message: 'Wise did not answer about a transfer in flight; asking again next run', transfer_id: row.id, reason: String(err) }));
      }
    }
  }
  return settled;
}
