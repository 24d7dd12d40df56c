// The dead-letter queue of transfers: messages whose retries ran out. A pending transfer never
// reached the provider, so it fails with "no money was sent". One in processing may have been paid
// just before its consumer died, so the provider is asked first, by the same idempotency key (the
// transfer id): its answer settles the transfer. If the provider cannot answer either, the transfer
// stays in processing with its lease released, and the cron sweep puts it back on the queue.
import { eq } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { createDb } from '../../lib/db';
import { nowIso } from '../../lib/time';
import { finish } from './consumer';
import { TransferMessage } from './message';
import { type PayoutProvider, sandboxProvider } from './payout-provider';
import type { RecipientValue } from './recipient';
import type { TransferRow } from './service';

export async function consumeTransferDeadLetters(batch: MessageBatch<unknown>, env: Env, provider: PayoutProvider = sandboxProvider) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const parsed = TransferMessage.safeParse(message.body);
    if (parsed.success) {
      const row = await db.query.transfers.findFirst({ where: eq(transfers.id, parsed.data.transfer_id) });
      if (row?.status === 'pending') {
        await finish(env, row, { status: 'failed', reason: 'The payout provider could not be reached after several attempts; no money was sent.' }, ['pending']);
      } else if (row?.status === 'processing') {
        await settleWithProvider(env, row, provider);
      }
    }
    message.ack();
  }
}

async function settleWithProvider(env: Env, row: TransferRow, provider: PayoutProvider) {
  try {
    const result = await provider.payout({
      idempotencyKey: row.id,
      amount: row.targetAmount,
      currency: row.targetCurrency,
      recipient: JSON.parse(row.recipient) as RecipientValue,
      reference: row.reference,
    });
    await finish(env, row, result.status === 'completed' ? { status: 'completed', payoutId: result.payoutId } : { status: 'failed', reason: result.reason });
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', message: 'dead-lettered transfer could not be settled; left for the sweep', transfer_id: row.id, reason: String(err) }));
    // An expired lease is what the sweep looks for.
    await createDb(env.DB).update(transfers).set({ leaseUntil: nowIso() }).where(eq(transfers.id, row.id));
  }
}
