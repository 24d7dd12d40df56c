// The context the transfers queue and cron work acts in: the workspace of the transfer at hand,
// with the `system` actor "transfers" on the events it writes.
import { eq } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { systemContext, type WorkspaceContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import type { TransferRow } from './service';

/** The actor name of the events this job writes. */
export const TRANSFERS_JOB = 'transfers';

export const transfersJobContext = (env: Env, workspaceId: string): WorkspaceContext => systemContext(env, workspaceId, TRANSFERS_JOB);

export type TransferJob = { ctx: WorkspaceContext; row: TransferRow };

/**
 * The transfer a queue message names, in its workspace's context; undefined if there is none.
 * The one read not scoped by workspace: a message comes from our own producer and names only the
 * transfer, whose row says which workspace every later statement is scoped to.
 */
export async function findTransferJob(env: Env, transferId: string): Promise<TransferJob | undefined> {
  const row = await createDb(env.DB).query.transfers.findFirst({ where: eq(transfers.id, transferId) });
  return row && { ctx: transfersJobContext(env, row.workspaceId), row };
}
