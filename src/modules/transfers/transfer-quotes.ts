// Quotes first (§6): POST /v1/remit/quotes prices a transfer and holds the price for 30 minutes,
// moving nothing. A transfer naming the quote gets exactly its terms, once: the quote is marked
// used by a guarded UPDATE in the same batch as the transfer's INSERT, so two transfers racing for
// one quote cannot both have it.
import { and, eq, gt, isNull } from 'drizzle-orm';
import { transferQuotes } from '../../db/schema';
import { ApiError, invalidField } from '../../errors';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { getRatesSnapshot } from '../rates/refresh';
import { pricingFrom, type Quote, quoteTransfer } from './quote';
import type { CreateTransferInput, CreateTransferQuoteInput } from './schemas';

export const QUOTE_LIFETIME_MS = 30 * 60_000;

export type TransferQuoteRow = typeof transferQuotes.$inferSelect;

export const serializeTransferQuote = (row: TransferQuoteRow) => ({
  id: row.id,
  source_currency: row.sourceCurrency,
  source_amount: row.sourceAmount,
  fee: row.fee,
  target_currency: row.targetCurrency,
  target_amount: row.targetAmount,
  rate: row.rate,
  rate_as_of: row.rateAsOf,
  expires_at: row.expiresAt,
  created_at: row.createdAt,
});

export async function createTransferQuote(ctx: WorkspaceContext, input: CreateTransferQuoteInput): Promise<TransferQuoteRow> {
  const quote = quoteTransfer(await getRatesSnapshot(ctx.env), pricingFrom(ctx.env), input);
  const now = new Date();
  const row: TransferQuoteRow = {
    id: newId('transferQuote'),
    workspaceId: ctx.workspaceId,
    sourceCurrency: input.source_currency,
    sourceAmount: input.source_amount,
    fee: quote.fee,
    targetCurrency: input.target_currency,
    targetAmount: quote.targetAmount,
    rate: quote.rate,
    rateAsOf: quote.rateAsOf,
    expiresAt: new Date(now.getTime() + QUOTE_LIFETIME_MS).toISOString(),
    usedBy: null,
    createdAt: now.toISOString(),
  };
  await ctx.db.insert(transferQuotes).values(row);
  return row;
}

export type QuotedTerms = { source_currency: string; target_currency: string; source_amount: number; quote: Quote };

/**
 * The terms a transfer naming `quote_id` gets: the quote's, checked against what the body also
 * sends (422 on a difference), live (409 once expired) and unused (409).
 */
export async function termsOfQuote(ctx: WorkspaceContext, input: CreateTransferInput & { quote_id: string }): Promise<QuotedTerms> {
  const [row] = await ctx.db.select().from(transferQuotes).where(and(eq(transferQuotes.id, input.quote_id), inWorkspace(ctx, transferQuotes)));
  if (!row) throw invalidField('quote_id', 'No such quote in this workspace.');
  const sent = { source_currency: row.sourceCurrency, target_currency: row.targetCurrency, source_amount: row.sourceAmount };
  for (const field of ['source_currency', 'target_currency', 'source_amount'] as const) {
    if (input[field] !== undefined && input[field] !== sent[field]) throw invalidField(field, `Must match the quote (${sent[field]}), or be left out.`);
  }
  if (row.usedBy) throw quoteUsed(row);
  if (row.expiresAt <= nowIso()) throw quoteExpired(row);
  return { ...sent, quote: { fee: row.fee, rate: row.rate, rateAsOf: row.rateAsOf, targetAmount: row.targetAmount } };
}

/** The guarded UPDATE that spends a quote on a transfer; it changes no row if the quote was used or ran out meanwhile. */
export const useQuote = (ctx: WorkspaceContext, quoteId: string, transferId: string, at: string) =>
  ctx.db
    .update(transferQuotes)
    .set({ usedBy: transferId })
    .where(and(eq(transferQuotes.id, quoteId), inWorkspace(ctx, transferQuotes), isNull(transferQuotes.usedBy), gt(transferQuotes.expiresAt, at)));

/** Why the quote could not be used after all (read again after a guard did not hold). */
export async function quoteUnavailable(ctx: WorkspaceContext, quoteId: string): Promise<ApiError> {
  const [row] = await ctx.db.select().from(transferQuotes).where(and(eq(transferQuotes.id, quoteId), inWorkspace(ctx, transferQuotes)));
  return row && !row.usedBy ? quoteExpired(row) : quoteUsed(row);
}

const quoteUsed = (row: TransferQuoteRow | undefined) =>
  new ApiError('conflict', `This quote was already used${row?.usedBy ? ` by transfer ${row.usedBy}` : ''}; a quote pays for one transfer. Ask for a new quote.`);
const quoteExpired = (row: TransferQuoteRow) => new ApiError('conflict', `This quote expired at ${row.expiresAt}; ask for a new one.`);
