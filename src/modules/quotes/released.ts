// Deleting the draft invoice a quote was converted into gives the quote back (§18): `accepted`
// again with no invoice, ready to convert anew, written in the delete's own batch. Its UPDATE is
// guarded on the quote still naming that invoice and on the invoice being gone by then, so it
// happens if and only if the delete before it did; its `quote.updated` event follows it.
import { and, eq, notExists, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { invoices, quotes } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { nowIso } from '../../lib/time';
import { changedAttributes, recordEvent } from '../events/record';
import { type QuoteRow, serializeQuote } from './serialize';

/** The statements that follow the delete of `invoice` in its batch: none unless a converted quote names it. */
export async function quoteReleasedBy(ctx: WorkspaceContext, invoice: { id: string; quoteId: string | null }): Promise<BatchItem<'sqlite'>[]> {
  if (!invoice.quoteId) return [];
  const [before] = await ctx.db.select().from(quotes).where(and(eq(quotes.id, invoice.quoteId), inWorkspace(ctx, quotes))).limit(1);
  if (!before || before.status !== 'converted' || before.invoiceId !== invoice.id) return [];
  const set = { status: 'accepted', invoiceId: null, updatedAt: nowIso() } satisfies Partial<QuoteRow>;
  const after: QuoteRow = { ...before, ...set };
  return [
    ctx.db
      .update(quotes)
      .set(set)
      .where(
        and(
          eq(quotes.id, before.id),
          inWorkspace(ctx, quotes),
          eq(quotes.status, 'converted'),
          eq(quotes.invoiceId, invoice.id),
          notExists(ctx.db.select({ one: sql`1` }).from(invoices).where(eq(invoices.id, invoice.id))),
        ),
      ),
    recordEvent(ctx, 'quote.updated', serializeQuote(after), {
      previous: changedAttributes(serializeQuote(before), serializeQuote(after)),
      ifChanged: true,
    }),
  ];
}
