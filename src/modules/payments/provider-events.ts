// What a verified provider event does (§16). A paid checkout records one online payment: the
// invoice's UPDATE is guarded on the state it read and on no payment with the provider's payment id
// existing yet, and the payment, its events and the receipt email follow it in the same batch, so
// an event delivered twice, late or out of order records the payment at most once (and the unique
// index on provider_payment_id stands behind the guard). A failed or expired checkout closes its
// attempt. An event for an attempt this workspace does not have changes nothing.
import { and, eq, ne, sql } from 'drizzle-orm';
import { emailDeliveries, invoices, paymentAttempts, payments } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { changedRows, insertIf, previousChanged, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { nowIso, todayIn } from '../../lib/time';
import { enqueueEmailsQuietly, outboxRow } from '../emails/outbox';
import { recordEvent } from '../events/record';
import { invoiceObject, readInvoiceWithParties } from '../invoices/service';
import type { ProviderRow } from './connection';
import { PAYMENTS_JOB, type ProviderEvent } from './providers/provider';
import { settleFromProvider } from './refund-events';
import { afterMoney, type PaymentRow, serializePayment } from './serialize';

type AttemptRow = typeof paymentAttempts.$inferSelect;
import { taxShare } from '../../lib/money';


export type EventOutcome = 'recorded' | 'duplicate' | 'closed' | 'settled' | 'ignored';

/** The attempt and its invoice as read with the provider (webhook.ts), so they need no round trip of their own. */
export type PrefetchedAttempt = { attempt: AttemptRow | undefined; invoice: Awaited<ReturnType<typeof readInvoiceWithParties>> };

export async function applyProviderEvent(env: Env, providerRow: ProviderRow, event: ProviderEvent, read: PrefetchedAttempt): Promise<EventOutcome> {
  if (event.kind === 'ignored' || event.kind === 'pending') return 'ignored';
  if (event.kind === 'refund') return settleFromProvider(env, providerRow, event);
  const db = createDb(env.DB);
  const attempt = read.attempt?.id === event.attemptId && read.attempt.workspaceId === providerRow.workspaceId ? read.attempt : undefined;
  // Another workspace's attempt, or a checkout that is not the attempt's: not ours to act on.
  if (!attempt || attempt.providerCheckoutId !== event.checkoutId || attempt.provider !== providerRow.provider) return 'ignored';
  if (event.kind !== 'paid') {
    const [closed] = await db
      .update(paymentAttempts)
      .set({ status: event.kind, failureMessage: event.kind === 'failed' ? 'The payment did not go through.' : null, updatedAt: nowIso() })
      .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.status, 'open')))
      .returning({ id: paymentAttempts.id });
    return closed ? 'closed' : 'ignored';
  }
  if (event.currency !== attempt.currency) {
    console.warn(JSON.stringify({ level: 'warn', message: 'provider payment in another currency than its attempt; not recorded', attempt_id: attempt.id, currency: event.currency }));
    return 'ignored';
  }
  const invoice = read.invoice?.invoice.row.id === attempt.invoiceId ? read.invoice : undefined;
  return recordOnlinePayment(env, providerRow, attempt.id, attempt.invoiceId, event, invoice);
}

async function recordOnlinePayment(
  env: Env,
  providerRow: ProviderRow,
  attemptId: string,
  invoiceId: string,
  event: Extract<ProviderEvent, { kind: 'paid' }>,
  readAlready: PrefetchedAttempt['invoice'],
): Promise<EventOutcome> {
  const db = createDb(env.DB);
  let prefetched = readAlready;
  const recorded = await retryOnRace('invoice', async () => {
    // The first try uses the invoice read with the attempt; a try after a lost race reads it again.
    const found = prefetched ?? (await readInvoiceWithParties(db, and(eq(invoices.id, invoiceId), eq(invoices.workspaceId, providerRow.workspaceId))!));
    prefetched = undefined;
    if (!found) return 'ignored' as const;
    const ctx = systemContext(env, providerRow.workspaceId, PAYMENTS_JOB, found.workspace.timeZone);
    const before = found.invoice.row;
    const now = nowIso();
    const set = afterMoney(before, event.amount, now);
    const after = { ...found.invoice, row: { ...before, ...set } };
    const payment: PaymentRow = {
      id: newId('payment'), userId: before.userId, workspaceId: ctx.workspaceId, invoiceId, amount: event.amount, currency: event.currency,
      paidOn: todayIn(ctx.timeZone), method: event.method, reference: event.checkoutId, createdAt: now,
      tax: taxShare(event.amount, before.tax, before.total),
      source: 'online', provider: providerRow.provider, providerPaymentId: event.paymentId,
    };
    const object = invoiceObject(ctx, after);
    const payer = event.payerEmail ?? found.client.email;
    const receipt = payer ? outboxRow(ctx, { invoiceId, kind: 'receipt', to: [payer], cc: [], message: null, linkOrigin: before.linkOrigin ?? '', paymentId: payment.id }) : null;
    const [updated] = await db.batch([
      db
        .update(invoices)
        .set(set)
        .where(
          and(
            eq(invoices.id, invoiceId),
            eq(invoices.status, before.status),
            eq(invoices.updatedAt, before.updatedAt),
            sql`NOT EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.providerPaymentId} = ${event.paymentId})`,
          ),
        ),
      insertIf(db, payments, payment, previousChanged),
      recordEvent(ctx, 'invoice.payment_recorded', object, { ifChanged: true, data: { payment: serializePayment(payment) } }),
      ...(set.status === 'paid' ? [recordEvent(ctx, 'invoice.paid', object, { ifChanged: true })] : []),
      ...((set.overpaidAmount ?? 0) > before.overpaidAmount ? [recordEvent(ctx, 'invoice.overpaid', object, { ifChanged: true })] : []),
      ...(receipt ? [insertIf(db, emailDeliveries, receipt, previousChanged)] : []),
      // The attempt is paid however this event fares: a duplicate finds it so already.
      db.update(paymentAttempts).set({ status: 'succeeded', failureMessage: null, updatedAt: now }).where(and(eq(paymentAttempts.id, attemptId), ne(paymentAttempts.status, 'succeeded'))),
    ]);
    if (changedRows(updated) > 0) return { outcome: 'recorded' as const, receiptId: receipt?.id };
    const [already] = await db.select({ id: payments.id }).from(payments).where(eq(payments.providerPaymentId, event.paymentId));
    return already ? ('duplicate' as const) : undefined; // else another change won the invoice: read it again
  });
  if (typeof recorded === 'string') return recorded;
  if (recorded.receiptId) await enqueueEmailsQuietly(env, [recorded.receiptId]);
  return 'recorded';
}
