// The transfers queue consumer: pending → processing → completed | failed.
// Delivery is at least once, so every step is a guarded UPDATE and a duplicate does nothing:
//  - a consumer takes a transfer by moving it to `processing` with a lease (only one can win);
//  - a redelivery that finds it leased waits for the lease; after a crash the lease runs out and the
//    next delivery takes over, calling the provider again with the same idempotency key (the
//    transfer id), which a provider answers without paying twice;
//  - a finished transfer is acknowledged without calling anyone.
// Transient provider failures retry with exponential backoff; the dead-letter consumer
// (dead-letter.ts) fails the transfers whose retries ran out.
import { z } from '@hono/zod-openapi';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { activities, transfers } from '../../db/schema';
import { createDb, type Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type PayoutProvider, sandboxProvider, TransientPayoutError } from './payout-provider';
import type { RecipientValue } from './recipient';
import { type TransferRow, withHistory } from './service';

export const LEASE_MS = 60_000;
const MAX_BACKOFF_SECONDS = 300;

const TransferMessageSchema = z.object({ transfer_id: z.string().regex(/^trf_[0-9A-HJKMNP-TV-Z]{26}$/) });

export const backoffSeconds = (attempts: number) => Math.min(MAX_BACKOFF_SECONDS, 2 ** attempts * 5);

type Outcome = { ack: true } | { retryAfter: number };

export async function consumeTransfers(batch: MessageBatch<unknown>, env: Env, provider: PayoutProvider = sandboxProvider) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const parsed = TransferMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      // Nothing can ever make this message valid: drop it, loudly.
      console.error(JSON.stringify({ level: 'error', message: 'malformed transfer message dropped', body: message.body }));
      message.ack();
      continue;
    }
    try {
      const outcome = await processTransfer(db, parsed.data.transfer_id, provider);
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

async function processTransfer(db: Db, id: string, provider: PayoutProvider): Promise<Outcome> {
  const row = await db.query.transfers.findFirst({ where: eq(transfers.id, id) });
  if (!row || row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled') return { ack: true };

  const claimed = await claim(db, row);
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
  await finish(db, claimed, result.status === 'completed' ? { status: 'completed', payoutId: result.payoutId } : { status: 'failed', reason: result.reason });
  return { ack: true };
}

/** Moves a pending transfer (or one whose lease ran out) to processing under a fresh lease. */
async function claim(db: Db, row: TransferRow): Promise<TransferRow | null> {
  const now = new Date();
  const at = now.toISOString();
  const [claimed] = await db
    .update(transfers)
    .set({
      status: 'processing',
      statusHistory: row.status === 'pending' ? withHistory(row, 'processing', at) : row.statusHistory,
      leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
      updatedAt: at,
    })
    .where(
      and(
        eq(transfers.id, row.id),
        eq(transfers.updatedAt, row.updatedAt),
        or(eq(transfers.status, 'pending'), and(eq(transfers.status, 'processing'), or(isNull(transfers.leaseUntil), lt(transfers.leaseUntil, at)))),
      ),
    )
    .returning();
  return claimed ?? null;
}

async function releaseLease(db: Db, id: string) {
  await db.update(transfers).set({ leaseUntil: null }).where(and(eq(transfers.id, id), eq(transfers.status, 'processing')));
}

type Ending = { status: 'completed'; payoutId: string } | { status: 'failed'; reason: string };

/** processing → completed | failed, with its activity event in the same batch. */
export async function finish(db: Db, row: TransferRow, ending: Ending, fromStatuses: TransferRow['status'][] = ['processing']) {
  const at = nowIso();
  const amount = `${row.targetAmount} ${row.targetCurrency} (minor units)`;
  const [updated] = await db.batch([
    db
      .update(transfers)
      .set({
        status: ending.status,
        payoutId: ending.status === 'completed' ? ending.payoutId : row.payoutId,
        failureReason: ending.status === 'failed' ? ending.reason : null,
        statusHistory: withHistory(row, ending.status, at),
        leaseUntil: null,
        updatedAt: at,
      })
      .where(and(eq(transfers.id, row.id), eq(transfers.updatedAt, row.updatedAt), or(...fromStatuses.map((s) => eq(transfers.status, s)))))
      .returning({ id: transfers.id }),
    // Written only if the update above changed the transfer (same batch, so never one without the other).
    db.insert(activities).select(
      db
        .select({
          id: sql<string>`${newId('activity')}`.as('id'),
          userId: transfers.userId,
          type: sql<string>`${ending.status === 'completed' ? 'transfer.completed' : 'transfer.failed'}`.as('type'),
          subjectId: transfers.id,
          summary: sql<string>`${`Transfer of ${amount} ${ending.status}`}`.as('summary'),
          occurredAt: sql<string>`${at}`.as('occurred_at'),
        })
        .from(transfers)
        .where(and(eq(transfers.id, row.id), sql`changes() = 1`)),
    ),
  ]);
  return updated.length > 0;
}
