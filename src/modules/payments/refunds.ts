// Refunds (§16): money going back on one payment. An online payment is refunded through its
// provider first, then the
// refund, the invoice's new amounts (paid → open when something is due again) and
// invoice.payment_refunded are written in one batch guarded on the invoice as it was read. A manual
// payment's refund is recorded as money returned outside.
//
// The provider's Idempotency-Key follows the request's own: a request whose provider call went through
// but whose answer was lost (the provider's reply garbled, our write beaten three times) leaves nothing
// here, so its retry with the same Idempotency-Key runs again, and must reach the provider with the
// same key, for the provider to answer the refund it made rather than make a second one.
import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { invoices, payments, refunds } from '../../db/schema';
import { ApiError, invalidField, invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, insertIf, previousChanged, retryOnRace } from '../../lib/guarded-write';
import { sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { taxShare } from '../../lib/money';
import { nowIso, todayIn } from '../../lib/time';
import { recordEvent } from '../events/record';
import { getInvoice, invoiceObject } from '../invoices/service';
import { connectedProvider, secretsOf } from './connection';
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

export async function refundPayment(
  ctx: ServiceContext, invoiceId: string, paymentId: string, input: RefundInput, requestKey?: string,
): Promise<RefundRow> {
  const invoice = await getInvoice(ctx, invoiceId);
  const [payment] = await ctx.db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.invoiceId, invoice.row.id), inWorkspace(ctx, payments)));
  if (!payment) throw notFound('Payment');
  const rest = payment.amount - ((await refundedByPayment(ctx, [payment.id])).get(payment.id) ?? 0);
  const amount = input.amount ?? rest;
  if (rest <= 0) throw invalidState(`Payment ${payment.id} is already refunded in full.`);
  if (amount > rest) throw invalidField('amount', `At most what is not yet refunded of the payment (${rest}).`);
  const refundId = newId('refund');
  const providerKey = requestKey ? await sha256Hex(`refund\n${ctx.workspaceId}\n${ctx.userId}\n${payment.id}\n${requestKey}`) : refundId;
  const outcome = payment.source === 'online'
    ? await refundAtProvider(ctx, payment, { refundId, idempotencyKey: providerKey }, amount)
    : { providerRefundId: null, status: 'succeeded' as const };
  return retryOnRace('invoice', async () => {
    const before = (await getInvoice(ctx, invoiceId)).row;
    const now = nowIso();
    const refund: RefundRow = {
      id: refundId, workspaceId: ctx.workspaceId, invoiceId, paymentId: payment.id, amount, tax: taxShare(amount, payment.tax ?? 0, payment.amount),
      currency: payment.currency, status: outcome.status,
      providerRefundId: outcome.providerRefundId, reason: input.reason ?? null, refundedOn: todayIn(ctx.timeZone), createdAt: now,
    };
    // A refund the provider refused outright moves no money: it is recorded, the invoice unchanged.
    const set = outcome.status === 'failed' ? { updatedAt: now } : afterMoney(before, -amount, now);
    const after = { ...invoice, row: { ...before, ...set } };
    // Guarded in SQL too: refunds of the payment never add up to more than it.
    const withinPayment = sql`(SELECT coalesce(sum(${refunds.amount}), 0) FROM ${refunds} WHERE ${refunds.paymentId} = ${payment.id} AND ${refunds.status} != 'failed') + ${amount} <= ${payment.amount}`;
    const [updated] = await ctx.db.batch([
      ctx.db
        .update(invoices)
        .set(set)
        .where(and(eq(invoices.id, invoiceId), inWorkspace(ctx, invoices), eq(invoices.status, before.status), eq(invoices.updatedAt, before.updatedAt), withinPayment)),
      insertIf(ctx.db, refunds, refund, previousChanged),
      recordEvent(ctx, 'invoice.payment_refunded', invoiceObject(ctx, after), { ifChanged: true, data: { refund: serializeRefund(refund) } }),
    ]);
    if (changedRows(updated) === 0) {
      const left = payment.amount - ((await refundedByPayment(ctx, [payment.id])).get(payment.id) ?? 0);
      if (amount > left) throw invalidField('amount', `At most what is not yet refunded of the payment (${left}).`);
      return undefined; // another change won the invoice: read it again
    }
    return refund;
  });
}

export async function refundAtProvider(ctx: ServiceContext, payment: PaymentRow, keys: { refundId: string; idempotencyKey: string }, amount: number) {
  const connected = await connectedProvider(ctx);
  if (!connected || connected.row.provider !== payment.provider || !payment.providerPaymentId) {
    throw invalidState(`Payment ${payment.id} came through ${payment.provider}, which is not connected now: connect it again to refund through it.`);
  }
  const result = await connected.provider.refund(ctx.env, await secretsOf(ctx.env, connected.row), {
    ...keys, providerPaymentId: payment.providerPaymentId, amount, currency: payment.currency,
  });
  if (!result.ok) throw new ApiError('provider_error', `The payment provider did not make the refund: ${result.message}. Nothing was changed; try again.`);
  return { providerRefundId: result.providerRefundId, status: result.status };
}
