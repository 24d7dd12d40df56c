// The transfers queue consumer: pending → processing → completed | failed.
// Delivery is at least once, so every step is a guarded UPDATE and a duplicate does nothing:
//  - a consumer takes a transfer by moving it to `processing` with a lease (only one can win);
//  - a redelivery that finds it leased waits for the lease; after a crash the lease runs out and the
//    next delivery takes over, calling the provider again with the same idempotency key (the
//    transfer id), which a provider answers without paying twice;
//  - a finished transfer is acknowledged without calling anyone.
// Transient provider failures retry with exponential backoff; the dead-letter consumer
// (dead-letter.ts) fails the transfers whose retries ran out.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { createDb, type Db } from '../../lib/db';
import { changedRows } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { TransferMessage } from './message';
import { type PayoutProvider, sandboxProvider, TransientPayoutError } from './payout-provider';
import type { RecipientValue } from './recipient';
import { serializeTransfer, type TransferRow, withHistory } from './service';

export const LEASE_MS = 60_000;
const MAX_BACKOFF_SECONDS = 300;

/** The actor of the events this job writes. */
export const TRANSFERS_JOB = 'transfers';

export const backoffSeconds = (attempts: number) => Math.min(MAX_BACKOFF_SECONDS, 2 ** attempts * 5);

type Outcome = { ack: true } | { retryAfter: number };

export async function consumeTransfers(batch: MessageBatch<unknown>, env: Env, provider: PayoutProvider = sandboxProvider) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const parsed = TransferMessage.safeParse(message.body);
    if (!parsed.success) {
      // Nothing can ever make this message valid: drop it, loudly.
      console.error(JSON.stringify({ level: 'error', message: 'malformed transfer message dropped', body: message.body }));
      message.ack();
      continue;
    }
    try {
      const outcome = await processTransfer(env, parsed.data.transfer_id, provider);
      if ('ack' in outcome) message.ack();
      else message.retry({ delaySeconds: outcome.retryAfter });
    } catch (err) {
      const transient = err instanceof TransientPayoutError;
      console.warn(JSON.stringify({ level: 'warn', message: 'transfer payout failed; will retry', transfer_id: parsed.data.transfer_id, transient, reason: String(err), attempts: message.attempts }));
      await releaseLease(db, parsed.data.transfer_id);
      message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}

async function processTransfer(env: Env, id: string, provider: PayoutProvider): Promise<Outcome> {
  const db = createDb(env.DB);
  const row = await db.query.transfers.findFirst({ where: eq(transfers.id, id) });
  if (!row || row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled') return { ack: true };

  const claimed = await claim(env, row);
  if (!claimed) {
    const latest = await db.query.transfers.findFirst({ where: eq(transfers.id, id) });
    if (!latest || latest.status !== 'processing') return { ack: true };
    const leaseLeft = latest.leaseUntil ? Date.parse(latest.leaseUntil) - Date.now() : 0;
    return { retryAfter: Math.max(1, Math.ceil(leaseLeft / 1000)) };
  }

  const result = await provider.payout({
    idempotencyKey: claimed.id,
    amount: claimed.targetAmount,
    currency: claimed.targetCurrency,
    recipient: JSON.parse(claimed.recipient) as RecipientValue,
    reference: claimed.reference,
  });
  await finish(env, claimed, result.status === 'completed' ? { status: 'completed', payoutId: result.payoutId } : { status: 'failed', reason: result.reason });
  return { ack: true };
}

/**
 * Moves a pending transfer (or one whose lease ran out) to processing under a fresh lease. The
 * first claim writes transfer.processing; taking over an expired lease is the same processing.
 */
async function claim(env: Env, row: TransferRow): Promise<TransferRow | null> {
  const ctx = systemContext(env, row.workspaceId, TRANSFERS_JOB);
  const now = new Date();
  const at = now.toISOString();
  const claimed: TransferRow = {
    ...row,
    status: 'processing',
    statusHistory: row.status === 'pending' ? withHistory(row, 'processing', at) : row.statusHistory,
    leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
    updatedAt: at,
  };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(transfers)
      .set({ status: claimed.status, statusHistory: claimed.statusHistory, leaseUntil: claimed.leaseUntil, updatedAt: at })
      .where(
        and(
          eq(transfers.id, row.id),
          eq(transfers.updatedAt, row.updatedAt),
          or(eq(transfers.status, 'pending'), and(eq(transfers.status, 'processing'), or(isNull(transfers.leaseUntil), lt(transfers.leaseUntil, at)))),
        ),
      ),
    ...(row.status === 'pending' ? [recordEvent(ctx, 'transfer.processing', serializeTransfer(claimed), { ifChanged: true })] : []),
  ]);
  return changedRows(updated) > 0 ? claimed : null;
}

async function releaseLease(db: Db, id: string) {
  await db.update(transfers).set({ leaseUntil: null }).where(and(eq(transfers.id, id), eq(transfers.status, 'processing')));
}

type Ending = { status: 'completed'; payoutId: string } | { status: 'failed'; reason: string };

/** processing (or pending) → completed | failed, with its event in the same batch; false if another delivery got there first. */
export async function finish(env: Env, row: TransferRow, ending: Ending, fromStatuses: TransferRow['status'][] = ['processing']) {
  const ctx = systemContext(env, row.workspaceId, TRANSFERS_JOB);
  const at = nowIso();
  const after: TransferRow = {
    ...row,
    status: ending.status,
    payoutId: ending.status === 'completed' ? ending.payoutId : row.payoutId,
    failureReason: ending.status === 'failed' ? ending.reason : null,
    statusHistory: withHistory(row, ending.status, at),
    leaseUntil: null,
    updatedAt: at,
  };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(transfers)
      .set({ status: after.status, payoutId: after.payoutId, failureReason: after.failureReason, statusHistory: after.statusHistory, leaseUntil: null, updatedAt: at })
      .where(and(eq(transfers.id, row.id), eq(transfers.updatedAt, row.updatedAt), or(...fromStatuses.map((s) => eq(transfers.status, s))))),
    recordEvent(ctx, ending.status === 'completed' ? 'transfer.completed' : 'transfer.failed', serializeTransfer(after), { ifChanged: true }),
  ]);
  return changedRows(updated) > 0;
}
