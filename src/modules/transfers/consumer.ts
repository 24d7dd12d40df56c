// The transfers queue consumer: pending → processing → completed | failed.
// Delivery is at least once, so every step is a guarded UPDATE and a duplicate does nothing:
//  - a consumer takes a transfer by moving it to `processing` with a lease (only one can win);
//  - a redelivery that finds it leased waits for the lease; after a crash the lease runs out and the
//    next delivery takes over, calling the provider again with the same idempotency key (the
//    transfer id), which a provider answers without paying twice;
//  - a finished transfer is acknowledged without calling anyone.
// Each step's event is written in the batch of its guarded UPDATE and only if that UPDATE changed
// the row, so a redelivered message never writes a second one. Transient provider failures retry
// with exponential backoff; the dead-letter consumer (dead-letter.ts) settles the transfers whose
// retries ran out.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { changedRows } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { findTransferJob } from './job';
import { TransferMessage } from './message';
import { recipientToPay } from './account';
import { providerOfTransfer } from './payout-connection';
import { type PayoutProvider, type PayoutRequest, type PayoutResult, type Submitted, TransientPayoutError } from './payout-provider';
import { AWAITING_FUNDS } from './providers/wise';
import { serializeTransfer, type TransferRow, withHistory } from './service';

export const LEASE_MS = 60_000;
const MAX_BACKOFF_SECONDS = 300;

export const backoffSeconds = (attempts: number) => Math.min(MAX_BACKOFF_SECONDS, 2 ** attempts * 5);

type Outcome = { ack: true } | { retryAfter: number };

const isSettled = (status: TransferRow['status']) => status === 'completed' || status === 'failed' || status === 'cancelled';

export async function consumeTransfers(batch: MessageBatch<unknown>, env: Env, provider?: PayoutProvider) {
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
      message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}

async function processTransfer(env: Env, id: string, explicit?: PayoutProvider): Promise<Outcome> {
  const job = await findTransferJob(env, id);
  if (!job || isSettled(job.row.status) || isWithProvider(job.row)) return { ack: true };
  const { ctx, row } = job;

  const claimed = await claim(ctx, row);
  if (!claimed) {
    const latest = await ctx.db.query.transfers.findFirst({ where: and(eq(transfers.id, id), inWorkspace(ctx, transfers)) });
    if (!latest || latest.status !== 'processing' || isWithProvider(latest)) return { ack: true };
    const leaseLeft = latest.leaseUntil ? Date.parse(latest.leaseUntil) - Date.now() : 0;
    return { retryAfter: Math.max(1, Math.ceil(leaseLeft / 1000)) };
  }

  try {
    const provider = explicit ?? (await providerOfTransfer(ctx, claimed.provider));
    if (!provider) {
      await finish(ctx, claimed, { status: 'failed', reason: 'The workspace\'s payout provider was disconnected before the transfer was paid out; no money was sent.' });
      return { ack: true };
    }
    await settle(ctx, claimed, await provider.payout(await payoutRequest(ctx, claimed)));
  } catch (err) {
    // The retry may take it over at once instead of waiting out the lease; should even this
    // fail, the lease runs out by itself.
    await releaseLease(ctx, claimed).catch(() => undefined);
    throw err;
  }
  return { ack: true };
}

/** Handed to a real provider, which pays out and reports the end later (webhook, cron). */
export const isWithProvider = (row: TransferRow) => row.status === 'processing' && row.providerTransferId !== null && row.providerStatus !== AWAITING_FUNDS;

/** A provider's answer: an end (completed, failed) or the transfer accepted for paying out. */
export async function settle(ctx: WorkspaceContext, row: TransferRow, answer: PayoutResult | Submitted): Promise<boolean> {
  return answer.status === 'submitted' ? recordSubmission(ctx, row, answer) : finish(ctx, row, answer);
}

/**
 * What the consumer asks the provider: the transfer id is the idempotency key, on every attempt;
 * the whole account is opened for this call only; what the provider already holds is resumed.
 */
export const payoutRequest = async (ctx: WorkspaceContext, row: TransferRow): Promise<PayoutRequest> => ({
  idempotencyKey: row.id,
  sourceCurrency: row.sourceCurrency,
  sourceAmount: row.sourceAmount,
  amount: row.targetAmount,
  currency: row.targetCurrency,
  recipient: await recipientToPay(ctx.env, row),
  reference: row.reference,
  providerTransferId: row.providerTransferId,
  providerStatus: row.providerStatus,
  onCreated: async (created) => {
    // Noted at once, so a retry funds this transfer instead of asking for another; the row's
    // updated_at is left alone, so the guards of what follows still hold.
    await ctx.db
      .update(transfers)
      .set({ providerTransferId: created.providerTransferId, providerStatus: created.providerStatus })
      .where(and(eq(transfers.id, row.id), inWorkspace(ctx, transfers), eq(transfers.status, 'processing')));
  },
});

/**
 * The provider has the transfer and will pay it out: it stays processing, now with the provider's
 * id and state, and with the provider's own fee, rate and payout amount where it gave them.
 */
async function recordSubmission(ctx: WorkspaceContext, row: TransferRow, submitted: Submitted): Promise<boolean> {
  const at = nowIso();
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(transfers)
      .set({
        providerTransferId: submitted.providerTransferId,
        providerStatus: submitted.providerStatus,
        fee: submitted.fee ?? row.fee,
        rate: submitted.rate ?? row.rate,
        targetAmount: submitted.targetAmount ?? row.targetAmount,
        leaseUntil: null,
        updatedAt: at,
      })
      .where(and(eq(transfers.id, row.id), inWorkspace(ctx, transfers), eq(transfers.status, 'processing'), eq(transfers.updatedAt, row.updatedAt))),
  ]);
  return changedRows(updated) > 0;
}

/**
 * Moves a pending transfer (or one whose lease ran out) to processing under a fresh lease. The
 * first claim writes transfer.processing; taking over an expired lease is the same processing.
 */
async function claim(ctx: WorkspaceContext, row: TransferRow): Promise<TransferRow | null> {
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
          inWorkspace(ctx, transfers),
          eq(transfers.updatedAt, row.updatedAt),
          or(eq(transfers.status, 'pending'), and(eq(transfers.status, 'processing'), or(isNull(transfers.leaseUntil), lt(transfers.leaseUntil, at)))),
        ),
      ),
    ...(row.status === 'pending' ? [recordEvent(ctx, 'transfer.processing', serializeTransfer(claimed), { ifChanged: true })] : []),
  ]);
  return changedRows(updated) > 0 ? claimed : null;
}

/** Gives up this delivery's lease, and only it: another delivery may hold the transfer by now. */
async function releaseLease(ctx: WorkspaceContext, claimed: TransferRow) {
  await ctx.db
    .update(transfers)
    .set({ leaseUntil: null })
    .where(
      and(
        eq(transfers.id, claimed.id),
        inWorkspace(ctx, transfers),
        eq(transfers.status, 'processing'),
        eq(transfers.leaseUntil, claimed.leaseUntil ?? ''),
      ),
    );
}

/**
 * processing (or pending) → completed | failed, with its event in the same batch; false if
 * another delivery got there first (then neither the change nor its event is written).
 */
export async function finish(
  ctx: WorkspaceContext,
  row: TransferRow,
  ending: PayoutResult,
  fromStatuses: TransferRow['status'][] = ['processing'],
): Promise<boolean> {
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
      .where(
        and(
          eq(transfers.id, row.id),
          inWorkspace(ctx, transfers),
          eq(transfers.updatedAt, row.updatedAt),
          or(...fromStatuses.map((s) => eq(transfers.status, s))),
        ),
      ),
    recordEvent(ctx, ending.status === 'completed' ? 'transfer.completed' : 'transfer.failed', serializeTransfer(after), { ifChanged: true }),
  ]);
  return changedRows(updated) > 0;
}
