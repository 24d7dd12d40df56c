// The dead-letter queue of transfers: messages whose retries ran out. A pending transfer never
// reached the provider, so it fails with "no money was sent". One in processing may have been paid
// just before its consumer died, so the provider is asked first, by the same idempotency key (the
// transfer id): its answer settles the transfer. If the provider cannot answer either, the transfer
// stays in processing with its lease expired, and the cron sweep puts it back on the queue.
// Every ending goes through finish(), guarded like the consumer's: a second dead letter for the
// same transfer changes nothing and writes no second event.
import { and, eq } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { inWorkspace } from '../../lib/context';
import { nowIso } from '../../lib/time';
import { finish, payoutRequest } from './consumer';
import { findTransferJob, type TransferJob } from './job';
import { TRANSFER_MAX_RETRIES, TransferMessage } from './message';
import { type PayoutProvider, sandboxProvider } from './payout-provider';

// Every delivery of the message was tried (the first and each retry) without the transfer starting.
const NEVER_SENT = `The transfer could not be started in ${TRANSFER_MAX_RETRIES + 1} attempts; no money was sent.`;

export async function consumeTransferDeadLetters(batch: MessageBatch<unknown>, env: Env, provider: PayoutProvider = sandboxProvider) {
  for (const message of batch.messages) {
    const parsed = TransferMessage.safeParse(message.body);
    const job = parsed.success ? await findTransferJob(env, parsed.data.transfer_id) : undefined;
    if (job?.row.status === 'pending') {
      await finish(job.ctx, job.row, { status: 'failed', reason: NEVER_SENT }, ['pending']);
    } else if (job?.row.status === 'processing') {
      await settleWithProvider(job, provider);
    }
    message.ack();
  }
}

async function settleWithProvider({ ctx, row }: TransferJob, provider: PayoutProvider) {
  try {
    await finish(ctx, row, await provider.payout(payoutRequest(row)));
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', message: 'dead-lettered transfer could not be settled; left for the sweep', transfer_id: row.id, reason: String(err) }));
    // An expired lease is what the sweep looks for. Guarded on the row as read, so a delivery
    // that took the transfer meanwhile keeps its lease.
    await ctx.db
      .update(transfers)
      .set({ leaseUntil: nowIso() })
      .where(and(eq(transfers.id, row.id), inWorkspace(ctx, transfers), eq(transfers.status, 'processing'), eq(transfers.updatedAt, row.updatedAt)));
  }
}
