// Refunds (§16): money going back on one payment. The refund is first written in one batch guarded
// on the invoice as it was read and on the payment's unrefunded rest: the refund row (`pending` for
// an online payment, `succeeded` for a manual one, recorded as money returned outside), the
// invoice's new amounts (paid → open when something is due again) and invoice.payment_refunded.
// Only then is the provider asked (refund-settlement.ts), so concurrent refunds and credit notes
// never ask it for more than the rest, and none leaves without its row.
import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { invoices, payments, refunds } from '../../db/schema';
import { invalidField, invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, insertIf, previousChanged, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { taxShare } from '../../lib/money';
import { nowIso, todayIn } from '../../lib/time';
import { recordEvent } from '../events/record';
import { getInvoice, invoiceObject } from '../invoices/service';
import { connectedProvider } from './connection';
import { askProviderAndSettle } from './refund-settlement';
import type { RefundInput } from './schemas';
import { afterMoney, type PaymentRow, type RefundRow, serializeRefund } from './serialize';

/** Σ refunds that did not fail, per payment. */
export async function refundedByPayment(ctx: WorkspaceContext, paymentIds: string[]): Promise<Map<string, number>> {
  if (!paymentIds.length) return new Map();
  const rows = await ctx.db
    .select({ paymentId: refunds.paymentId, amount: sql<number>`sum(${refunds.amount})` })
    .from(refunds)
    .where(and(inArray(refunds.paymentId, paymentIds), inWorkspace(ctx, refunds), ne(refunds.status, 'failed')))
    .groupBy(refunds.paymentId);
  return new Map(rows.map((r) => [r.paymentId, Number(r.amount)]));
}

export async function listInvoicePayments(ctx: WorkspaceContext, invoiceId: string, limit: number, beforeId?: string) {
  return ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), inWorkspace(ctx, payments), beforeId ? lt(payments.id, beforeId) : undefined))
    .orderBy(desc(payments.id))
    .limit(limit + 1);
}

export async function refundPayment(ctx: ServiceContext, invoiceId: string, paymentId: string, input: RefundInput): Promise<RefundRow> {
  const invoice = await getInvoice(ctx, invoiceId);
  const [payment] = await ctx.db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.invoiceId, invoice.row.id), inWorkspace(ctx, payments)));
  if (!payment) throw notFound('Payment');
  const online = payment.source === 'online';
  if (online) await requireProviderOf(ctx, payment);
  const reserved = await reserveRefund(ctx, invoiceId, payment, input);
  return online ? askProviderAndSettle(ctx, payment, reserved) : reserved;
}

/** The refund row and the invoice's new amounts, written under the payment's unrefunded rest. */
function reserveRefund(ctx: ServiceContext, invoiceId: string, payment: PaymentRow, input: RefundInput): Promise<RefundRow> {
  const refundId = newId('refund');
  return retryOnRace('invoice', async () => {
    const [before, refunded] = await Promise.all([getInvoice(ctx, invoiceId), refundedByPayment(ctx, [payment.id])]);
    const rest = payment.amount - (refunded.get(payment.id) ?? 0);
    if (rest <= 0) throw invalidState(`Payment ${payment.id} is already refunded in full.`);
    const amount = input.amount ?? rest;
    if (amount > rest) throw invalidField('amount', `At most what is not yet refunded of the payment (${rest}).`);
    const now = nowIso();
    const refund: RefundRow = {
      id: refundId, workspaceId: ctx.workspaceId, invoiceId, paymentId: payment.id, amount, tax: taxShare(amount, payment.tax ?? 0, payment.amount),
      currency: payment.currency, status: payment.source === 'online' ? 'pending' : 'succeeded',
      providerRefundId: null, reason: input.reason ?? null, refundedOn: todayIn(ctx.timeZone), createdAt: now,
    };
    const set = afterMoney(before.row, -amount, now);
    const after = { ...before, row: { ...before.row, ...set } };
    const [updated] = await ctx.db.batch([
      ctx.db
        .update(invoices)
        .set(set)
        .where(and(
          eq(invoices.id, invoiceId), inWorkspace(ctx, invoices), eq(invoices.status, before.row.status), eq(invoices.updatedAt, before.row.updatedAt),
          withinPayment(payment, amount),
        )),
      insertIf(ctx.db, refunds, refund, previousChanged),
      recordEvent(ctx, 'invoice.payment_refunded', invoiceObject(ctx, after), { ifChanged: true, data: { refund: serializeRefund(refund) } }),
    ]);
    return changedRows(updated) > 0 ? refund : undefined; // another change won the invoice or the payment: read both again
  });
}

/**
 * The guard of every refund's batch: what the payment's refunds that did not fail take, with this
 * one, stays within the payment. A `pending` refund counts: it is money already promised back.
 */
export const withinPayment = (payment: PaymentRow, amount: number) =>
  sql`(SELECT coalesce(sum(${refunds.amount}), 0) FROM ${refunds} WHERE ${refunds.paymentId} = ${payment.id} AND ${refunds.status} != 'failed') + ${amount} <= ${payment.amount}`;

/** A refund of an online payment needs its provider connected: checked before anything is reserved. */
export async function requireProviderOf(ctx: ServiceContext, payment: PaymentRow): Promise<void> {
  const connected = await connectedProvider(ctx);
  if (!connected || connected.row.provider !== payment.provider || !payment.providerPaymentId) {
    throw invalidState(`Payment ${payment.id} came through ${payment.provider}, which is not connected now: connect it again to refund through it.`);
  }
}
