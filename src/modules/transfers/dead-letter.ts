// The dead-letter queue of transfers: messages whose retries ran out. A pending transfer never
// reached the provider, so it fails with "no money was sent". One in processing may have been paid
// just before its consumer died, so the provider is asked first, by the same idempotency key (the
// transfer id): its answer settles the transfer. If the provider cannot answer either, the transfer
// stays in processing with its lease expired, and the cron sweep puts it back on the queue; a Wise
// transfer never funded fails instead, with Wise's last answer as the reason.
// Every ending goes through finish(), guarded like the consumer's: a second dead letter for the
// same transfer changes nothing and writes no second event.
import { and, eq } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { inWorkspace } from '../../lib/context';
import { nowIso } from '../../lib/time';
import { finish, isWithProvider, payoutRequest, settle } from './consumer';
import { findTransferJob, type TransferJob } from './job';
import { TRANSFER_MAX_RETRIES, TransferMessage } from './message';
import { providerOfTransfer } from './payout-connection';
import { type PayoutProvider, TransientPayoutError } from './payout-provider';

// Every delivery of the message was tried (the first and each retry) without the transfer starting.
const NEVER_SENT = `The transfer could not be started in ${TRANSFER_MAX_RETRIES + 1} attempts; no money was sent.`;

export async function consumeTransferDeadLetters(batch: MessageBatch<unknown>, env: Env, provider?: PayoutProvider) {
  for (const message of batch.messages) {
    const parsed = TransferMessage.safeParse(message.body);
    const job = parsed.success ? await findTransferJob(env, parsed.data.transfer_id) : undefined;
    if (job?.row.status === 'pending') {
      await finish(job.ctx, job.row, { status: 'failed', reason: NEVER_SENT }, ['pending']);
    } else if (job?.row.status === 'processing' && !isWithProvider(job.row)) {
      await settleWithProvider(job, provider);
    }
    message.ack();
  }
}

async function settleWithProvider({ ctx, row }: TransferJob, explicit: PayoutProvider | undefined) {
  const provider = explicit ?? (await providerOfTransfer(ctx, row.provider));
  if (!provider) {
    await finish(ctx, row, { status: 'failed', reason: 'The workspace\'s payout provider was disconnected before the transfer was paid out; no money was sent.' });
    return;
  }
  try {
    await settle(ctx, row, await provider.payout(await payoutRequest(ctx, row)));
  } catch (err) {
    if (provider.name === 'wise' && !row.providerTransferId) {
      // Wise never confirmed a transfer, and we fund only one whose id Wise gave us: nothing was
      // funded, so failing it here sends nothing, and the reason says what went wrong. (One Wise
      // holds is left to the sweep: its funding may have gone through with the answer lost.)
      const reason = err instanceof TransientPayoutError ? err.message : 'Wise could not be reached';
      await finish(ctx, row, { status: 'failed', reason: `${reason}; tried ${TRANSFER_MAX_RETRIES + 1} times, no money was sent.` });
      return;
    }
    console.error(JSON.stringify({ level: 'error', message: 'dead-lettered transfer could not be settled; left for the sweep', transfer_id: row.id, reason: String(err) }));
    // An expired lease is what the sweep looks for. Guarded on the row as read, so a delivery
    // that took the transfer meanwhile keeps its lease.
    await ctx.db
      .update(transfers)
      .set({ leaseUntil: nowIso() })
      .where(and(eq(transfers.id, row.id), inWorkspace(ctx, transfers), eq(transfers.status, 'processing'), eq(transfers.updatedAt, row.updatedAt)));
  }
}
