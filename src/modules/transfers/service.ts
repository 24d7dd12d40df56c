// Transfers: quote, store and enqueue; read; cancel while pending. The queue consumer
// (consumer.ts) moves them on; the cron (sweep.ts) re-enqueues any whose enqueue was lost.
// Each change writes its transfer.* event in the same batch.
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, insertIf, previousChanged } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { getRatesSnapshot } from '../rates/refresh';
import { maskRecipient, sealAccount } from './account';
import { transferMessage } from './message';
import { payoutProviderForNewTransfer } from './payout-connection';
import { pricingFrom, quoteTransfer } from './quote';
import type { RecipientValue } from './recipient';
import type { CreateTransferInput } from './schemas';
import { type QuotedTerms, quoteUnavailable, termsOfQuote, useQuote } from './transfer-quotes';

export type TransferRow = typeof transfers.$inferSelect;
export type TransferStatusValue = TransferRow['status'];
export type HistoryEntry = { status: TransferStatusValue; at: string };

export const serializeTransfer = (row: TransferRow) => ({
  id: row.id,
  status: row.status,
  source_currency: row.sourceCurrency,
  source_amount: row.sourceAmount,
  fee: row.fee,
  target_currency: row.targetCurrency,
  target_amount: row.targetAmount,
  rate: row.rate,
  rate_as_of: row.rateAsOf,
  recipient: maskRecipient(JSON.parse(row.recipient) as RecipientValue),
  reference: row.reference,
  quote_id: row.quoteId,
  provider: row.provider,
  provider_transfer_id: row.providerTransferId,
  failure_reason: row.failureReason,
  status_history: JSON.parse(row.statusHistory) as HistoryEntry[],
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** The transfer's status_history with one more entry. */
export const withHistory = (row: TransferRow, status: TransferStatusValue, at: string) =>
  JSON.stringify([...(JSON.parse(row.statusHistory) as HistoryEntry[]), { status, at }]);

export async function createTransfer(ctx: ServiceContext, input: CreateTransferInput): Promise<TransferRow> {
  const provider = await payoutProviderForNewTransfer(ctx);
  const terms = input.quote_id
    ? await termsOfQuote(ctx, { ...input, quote_id: input.quote_id })
    : await priceNow(ctx, input);
  const { quote } = terms;
  const now = nowIso();
  const id = newId('transfer');
  const row: TransferRow = {
    id,
    userId: ctx.userId,
    workspaceId: ctx.workspaceId,
    status: 'pending',
    sourceCurrency: terms.source_currency,
    sourceAmount: terms.source_amount,
    fee: quote.fee,
    targetCurrency: terms.target_currency,
    targetAmount: quote.targetAmount,
    rate: quote.rate,
    rateAsOf: quote.rateAsOf,
    // Only the masked account is stored in the clear; the whole one is sealed for the payout.
    recipient: JSON.stringify(maskRecipient(input.recipient)),
    accountSealed: await sealAccount(ctx.env, id, input.recipient.account),
    reference: input.reference ?? null,
    failureReason: null,
    statusHistory: JSON.stringify([{ status: 'pending', at: now }]),
    payoutId: null,
    enqueuedAt: null,
    leaseUntil: null,
    createdAt: now,
    updatedAt: now,
    quoteId: input.quote_id ?? null,
    provider,
    providerTransferId: null,
    providerStatus: null,
  };
  if (input.quote_id) {
    // The quote is spent by the same batch that stores the transfer, and only if it still can be.
    const [used] = await ctx.db.batch([
      useQuote(ctx, input.quote_id, id, now),
      insertIf(ctx.db, transfers, row, previousChanged),
      recordEvent(ctx, 'transfer.created', serializeTransfer(row), { ifChanged: true }),
    ]);
    if (changedRows(used) === 0) throw await quoteUnavailable(ctx, input.quote_id);
  } else {
    await ctx.db.batch([ctx.db.insert(transfers).values(row), recordEvent(ctx, 'transfer.created', serializeTransfer(row))]);
  }
  await enqueueTransfers(ctx, [row.id]);
  return row;
}

async function priceNow(ctx: ServiceContext, input: CreateTransferInput): Promise<QuotedTerms> {
  // The body's schema requires the three without a quote_id.
  const terms = { source_currency: input.source_currency!, target_currency: input.target_currency!, source_amount: input.source_amount! };
  return { ...terms, quote: quoteTransfer(await getRatesSnapshot(ctx.env), pricingFrom(ctx.env), terms) };
}

/**
 * Puts a workspace's transfers on the queue and notes when. A failed send is logged, not thrown:
 * the transfer is safely stored as pending, and the sweep enqueues it again.
 */
export async function enqueueTransfers(ctx: WorkspaceContext, ids: string[]): Promise<void> {
  if (!ids.length) return;
  try {
    await ctx.env.TRANSFERS_QUEUE.sendBatch(ids.map((id) => ({ body: transferMessage(id, ctx.env) })));
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', message: 'transfer enqueue failed; the sweep will retry', transfer_ids: ids, reason: String(err) }));
    return;
  }
  const at = nowIso();
  // Chunked under D1's 100 bound parameters per statement.
  for (let i = 0; i < ids.length; i += 90) {
    await ctx.db
      .update(transfers)
      .set({ enqueuedAt: at })
      .where(and(inArray(transfers.id, ids.slice(i, i + 90)), inWorkspace(ctx, transfers)));
  }
}

export async function listTransfers(ctx: WorkspaceContext, filter: { status?: TransferStatusValue; limit: number; beforeId?: string }) {
  return ctx.db
    .select()
    .from(transfers)
    .where(
      and(
        inWorkspace(ctx, transfers),
        filter.status ? eq(transfers.status, filter.status) : undefined,
        filter.beforeId ? lt(transfers.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(transfers.id))
    .limit(filter.limit + 1);
}

export async function getTransfer(ctx: WorkspaceContext, id: string): Promise<TransferRow> {
  const row = await ctx.db.query.transfers.findFirst({ where: and(eq(transfers.id, id), inWorkspace(ctx, transfers)) });
  if (!row) throw notFound('Transfer');
  return row;
}

export async function cancelTransfer(ctx: ServiceContext, id: string): Promise<TransferRow> {
  const current = await getTransfer(ctx, id);
  if (current.status !== 'pending') throw cannotCancel(current);
  const now = nowIso();
  const after: TransferRow = { ...current, status: 'cancelled', statusHistory: withHistory(current, 'cancelled', now), updatedAt: now };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(transfers)
      .set({ status: after.status, statusHistory: after.statusHistory, updatedAt: now })
      .where(and(eq(transfers.id, id), inWorkspace(ctx, transfers), eq(transfers.status, 'pending'), eq(transfers.updatedAt, current.updatedAt))),
    recordEvent(ctx, 'transfer.canceled', serializeTransfer(after), { ifChanged: true }),
  ]);
  if (changedRows(updated) > 0) return after;
  // The consumer took it (or another cancel won) between the read and the write.
  throw cannotCancel(await getTransfer(ctx, id));
}

const cannotCancel = (row: TransferRow) => invalidState(`Only a pending transfer can be cancelled; this one is ${row.status}.`);
