// Money going back through a provider (§16, §17): by the time the provider is asked, the refund is
// already a `pending` row, written in a guarded batch that lowered the payment's unrefunded rest and
// the invoice's amount_paid. So two refunds or credit notes at once can never ask for more than the
// rest, and no money leaves without its row. Here the ask and its settlement:
//
// - the provider made it: `succeeded`, or still `pending` with the provider's id until its webhook
//   (or a later ask) says how it ended;
// - the provider refused it (a definitive answer): `failed`, and the rest is given back to the
//   payment and the invoice in one batch with the invoice's `invoice.updated`;
// - no readable answer (unreachable, a 5xx): it may have been made, so it stays `pending` and the
//   cron asks again with the same Idempotency-Key (the refund's id), which the provider answers
//   with the refund it made, or makes now. It is never given back on a guess.
import { and, eq, sql } from 'drizzle-orm';
import { invoices, refunds } from '../../db/schema';
import type { WorkspaceContext } from '../../lib/context';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { changedAttributes, recordEvent } from '../events/record';
import { getInvoice, invoiceObject } from '../invoices/service';
import { connectedProvider, secretsOf } from './connection';
import type { RefundResult } from './providers/provider';
import { afterMoney, type PaymentRow, type RefundRow, serializeRefund } from './serialize';

/** Asks the payment's provider for `refund` (reserved, `pending`) and settles it by the answer. */
export async function askProviderAndSettle(ctx: WorkspaceContext, payment: PaymentRow, refund: RefundRow): Promise<RefundRow> {
  const answer = await askProvider(ctx, payment, refund);
  if (answer.ok) {
    if (answer.status === 'failed') return settleFailed(ctx, refund, answer.providerRefundId);
    return settleMade(ctx, refund, answer.providerRefundId, answer.status);
  }
  if (answer.definitive) return settleFailed(ctx, refund, null, answer.message);
  // The provider's own words, never its key; the refund's id finds it in the provider's dashboard too.
  console.warn(JSON.stringify({ level: 'warn', message: 'refund not answered by the provider; it stays pending and is asked again', refund_id: refund.id, reason: answer.message }));
  return refund;
}

async function askProvider(ctx: WorkspaceContext, payment: PaymentRow, refund: RefundRow): Promise<RefundResult> {
  const connected = await connectedProvider(ctx);
  if (!connected || connected.row.provider !== payment.provider || !payment.providerPaymentId) {
    return { ok: false, message: `${payment.provider ?? 'the provider'} is not connected`, definitive: true };
  }
  return connected.provider.refund(ctx.env, await secretsOf(ctx.env, connected.row), {
    refundId: refund.id, providerPaymentId: payment.providerPaymentId, amount: refund.amount, currency: refund.currency,
  });
}

/** The provider made the refund: it `succeeded`, or is `pending` there with its id. */
export async function settleMade(ctx: WorkspaceContext, refund: RefundRow, providerRefundId: string, status: 'pending' | 'succeeded'): Promise<RefundRow> {
  const [row] = await ctx.db
    .update(refunds)
    .set({ status, providerRefundId })
    .where(and(eq(refunds.id, refund.id), eq(refunds.workspaceId, ctx.workspaceId), eq(refunds.status, 'pending')))
    .returning();
  return row ?? (await currentRefund(ctx, refund.id)) ?? refund;
}

/**
 * The refund did not happen: `failed`, and what it had taken is given back. The invoice's UPDATE is
 * guarded on the invoice as read and on the refund still being pending, so a settlement that races
 * another (a webhook and the cron) gives back once.
 */
export async function settleFailed(ctx: WorkspaceContext, refund: RefundRow, providerRefundId: string | null, message?: string): Promise<RefundRow> {
  if (message) console.warn(JSON.stringify({ level: 'warn', message: 'refund refused by the provider; its amount is given back', refund_id: refund.id, reason: message }));
  return retryOnRace('invoice', async () => {
    const before = await getInvoice(ctx, refund.invoiceId);
    const now = nowIso();
    const set = afterMoney(before.row, refund.amount, now);
    const after = { ...before, row: { ...before.row, ...set } };
    const failed: RefundRow = { ...refund, status: 'failed', providerRefundId: providerRefundId ?? refund.providerRefundId };
    const stillPending = sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${refund.id} AND ${refunds.status} = 'pending')`;
    const [updated] = await ctx.db.batch([
      ctx.db
        .update(invoices)
        .set(set)
        .where(and(eq(invoices.id, refund.invoiceId), eq(invoices.workspaceId, ctx.workspaceId), eq(invoices.updatedAt, before.row.updatedAt), stillPending)),
      ctx.db
        .update(refunds)
        .set({ status: 'failed', providerRefundId: failed.providerRefundId })
        .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending'), sql`changes() > 0`)),
      recordEvent(ctx, 'invoice.updated', invoiceObject(ctx, after), {
        ifChanged: true, previous: changedAttributes(invoiceObject(ctx, before), invoiceObject(ctx, after)), data: { refund: serializeRefund(failed) },
      }),
    ]);
    if (changedRows(updated) > 0) return failed;
    const current = await currentRefund(ctx, refund.id);
    return current && current.status !== 'pending' ? current : undefined; // settled elsewhere, or the invoice changed: read again
  });
}

async function currentRefund(ctx: WorkspaceContext, id: string): Promise<RefundRow | undefined> {
  const [row] = await ctx.db.select().from(refunds).where(and(eq(refunds.id, id), eq(refunds.workspaceId, ctx.workspaceId)));
  return row;
}
