// The invoice's life: draft → open (send) → paid (payments reaching zero due), or open → void while
// nothing is paid. Each action reads the invoice, computes what it becomes, and writes that in one
// batch led by an UPDATE guarded on the state it read (status and updated_at); the payment row and
// the events after it are written only if that UPDATE changed the invoice, so a lost race writes
// nothing and runs again against the state that won. (D1 counts rows that triggers change in
// meta.changes, so "did it happen" is changes > 0.)
import { and, eq, exists, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { emailDeliveries, invoices, payments } from '../../db/schema';
import { ApiError, invalidState } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, insertIf, previousChanged, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { taxShare } from '../../lib/money';
import { nowIso, todayIn } from '../../lib/time';
import { recordEvent } from '../events/record';
import { releaseBilledWork } from './release-billed-work';
import { enqueueEmailsQuietly, outboxRow } from '../emails/outbox';
import { billToOf, issuerSnapshotOf } from './client-snapshot';
import { linkHash, linkToken } from './links';
import type { PaymentInput, SendInvoiceInput } from './schemas';
import { serializePayment, type PaymentRow } from './payment';
import { amountDue, type InvoiceRow, type InvoiceWithLines } from './serialize';
import { getInvoice, getInvoiceWithParties, invoiceObject } from './service';
import { isUnnumbered, numberAtSend, skipNumbersInUse } from './numbering';
import { deliverSent, parsedBillTo } from './sent-delivery';

const refusal = (row: InvoiceRow, action: string) =>
  invalidState(`Cannot ${action} invoice ${row.number}: it is ${row.status}${row.status === 'open' && row.amountPaid > 0 ? ' with payments recorded' : ''}.`);

/** The invoice is still in the exact state that was read. */
const asRead = (ctx: WorkspaceContext, before: InvoiceRow) =>
  and(eq(invoices.id, before.id), inWorkspace(ctx, invoices), eq(invoices.status, before.status), eq(invoices.updatedAt, before.updatedAt));

/** The UPDATE of an action: the new columns, written only over the exact state that was read (and if `onlyIf` holds). */
function transition(ctx: WorkspaceContext, before: InvoiceRow, set: Partial<InvoiceRow>, onlyIf?: SQL) {
  return ctx.db.update(invoices).set(set).where(and(asRead(ctx, before), onlyIf));
}

/**
 * draft → open (§10): finalizes the invoice, snapshotting who bills and who pays (with its locale,
 * else the client's, else the workspace's (§20), and the workspace's payment instructions, so its documents read the same forever), gives it its hosted
 * link, and, unless `email` is false or there is no one to send to, queues the email in the same
 * batch. `linkOrigin` is where the link points (PUBLIC_URL or the request's origin).
 */
export async function sendInvoice(ctx: WorkspaceContext, id: string, input: SendInvoiceInput, linkOrigin: string): Promise<InvoiceWithLines> {
  const sent = await retryOnRace('invoice', async () => {
    const { invoice: before, client, workspace } = await getInvoiceWithParties(ctx, id);
    if (before.row.status !== 'draft') throw refusal(before.row, 'send');
    const now = nowIso();
    // Nothing to collect on a zero total: it is settled the moment it is sent, never overdue.
    const settled = before.row.total === 0;
    const set: Partial<InvoiceRow> = {
      status: settled ? 'paid' : 'open', sentAt: now, paidAt: settled ? now : null, updatedAt: now,
      issuer: JSON.stringify(issuerSnapshotOf(workspace)), billTo: JSON.stringify(billToOf(client)),
      locale: before.row.locale ?? client.locale ?? workspace.locale, paymentInstructions: workspace.paymentInstructions,
      // A draft with no buyer reference of its own quotes the client's as it is now (§15).
      buyerReference: before.row.buyerReference ?? client.buyerReference,
      linkVersion: 1, linkHash: await linkHash(await linkToken(ctx.env, id, 1)), linkOrigin,
    };
    const after = { ...before, row: { ...before.row, ...set } };
    const to = input.to ?? (client.email ? [client.email] : []);
    const email = input.email && to.length
      ? outboxRow(ctx, { invoiceId: id, kind: 'invoice', to, cc: input.cc ?? [], message: input.message ?? null, linkOrigin })
      : null;
    // A draft with no number yet takes the next one now, in this batch (§20), so numbers follow the
    // order of sending; its events carry it from here on.
    const numbering = isUnnumbered(before.row) ? numberAtSend(ctx, exists(ctx.db.select({ one: sql`1` }).from(invoices).where(asRead(ctx, before.row)))) : undefined;
    const fill = numbering && { fill: { number: numbering.value } };
    const statements: BatchItem<'sqlite'>[] = [
      ...(numbering ? [numbering.bump] : []),
      transition(ctx, before.row, numbering ? { ...set, number: numbering.value as unknown as string } : set, numbering?.isFree),
      recordEvent(ctx, 'invoice.sent', invoiceObject(ctx, after), { ifChanged: true, ...fill }),
      ...(settled ? [recordEvent(ctx, 'invoice.paid', invoiceObject(ctx, after), { ifChanged: true, ...fill })] : []),
      ...(email ? [insertIf(ctx.db, emailDeliveries, email, previousChanged)] : []),
      // The number it took, or, when nothing was written, whether the draft is still as read.
      ...(numbering ? [ctx.db.select({ number: invoices.number, updatedAt: invoices.updatedAt }).from(invoices).where(eq(invoices.id, id))] : []),
    ];
    const results = await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    if (!numbering) return changedRows(results[0]) > 0 ? { ...after, emailId: email?.id } : undefined;
    const [current] = results.at(-1) as { number: string; updatedAt: string }[];
    if (changedRows(results[1]) > 0) return { ...after, row: { ...after.row, number: current!.number }, emailId: email?.id };
    // Not sent: another request changed the invoice (read it again), or, the draft as it was, a
    // hand-picked number stood where the counter's next one was (move past the numbers in use, and draw again).
    if (current?.updatedAt === before.row.updatedAt) await skipNumbersInUse(ctx);
    return undefined;
  });
  if (sent.emailId) await enqueueEmailsQuietly(ctx.env, [sent.emailId]);
  await deliverSent(ctx, { kind: 'invoice', id, object: invoiceObject(ctx, sent), buyer: parsedBillTo(sent.row.billTo) });
  return sent;
}

export async function voidInvoice(ctx: ServiceContext, id: string): Promise<InvoiceWithLines> {
  return retryOnRace('invoice', async () => {
    const before = await getInvoice(ctx, id);
    if (before.row.status !== 'open' || before.row.amountPaid > 0) throw refusal(before.row, 'void');
    // A credit note refers to the invoice: it stays, corrected, never voided (§17).
    if (before.row.creditedAmount > 0) throw invalidState(`Cannot void invoice ${before.row.number}: it has credit notes; credit what is left instead.`);
    const now = nowIso();
    const set: Partial<InvoiceRow> = { status: 'void', voidedAt: now, updatedAt: now };
    const after = { ...before, row: { ...before.row, ...set } };
    const [updated] = await ctx.db.batch([
      transition(ctx, before.row, set),
      recordEvent(ctx, 'invoice.voided', invoiceObject(ctx, after), { ifChanged: true }),
      ...releaseBilledWork(ctx, id),
    ]);
    return changedRows(updated) > 0 ? after : undefined;
  });
}

export async function recordPayment(ctx: ServiceContext, id: string, input: PaymentInput): Promise<InvoiceWithLines> {
  return retryOnRace('invoice', async () => {
    const before = await getInvoice(ctx, id);
    if (before.row.status !== 'open') throw refusal(before.row, 'record a payment on');
    const due = amountDue(before.row);
    if (input.amount > due) {
      throw new ApiError('validation_failed', 'The request is not valid.', [{ path: 'amount', message: `At most the amount due (${due}).` }]);
    }
    const now = nowIso();
    const settles = input.amount === due;
    const set: Partial<InvoiceRow> = {
      amountPaid: sql`${invoices.amountPaid} + ${input.amount}` as unknown as number,
      ...(settles ? { status: 'paid' as const, paidAt: now } : {}),
      updatedAt: now,
    };
    const after = { ...before, row: { ...before.row, amountPaid: before.row.amountPaid + input.amount, ...(settles ? { status: 'paid' as const, paidAt: now } : {}), updatedAt: now } };
    const payment: PaymentRow = {
      id: newId('payment'), userId: ctx.userId, workspaceId: ctx.workspaceId, invoiceId: id, amount: input.amount, currency: before.row.currency,
      paidOn: input.paid_on ?? todayIn(ctx.timeZone), method: input.method ?? null, reference: input.reference ?? null, createdAt: now,
      tax: taxShare(input.amount, before.row.tax, before.row.total), source: 'manual', provider: null, providerPaymentId: null,
    };
    const data = { payment: serializePayment(payment) };
    const [updated] = await ctx.db.batch([
      transition(ctx, before.row, set),
      insertIf(ctx.db, payments, payment, previousChanged),
      recordEvent(ctx, 'invoice.payment_recorded', invoiceObject(ctx, after), { ifChanged: true, data }),
      ...(settles ? [recordEvent(ctx, 'invoice.paid', invoiceObject(ctx, after), { ifChanged: true })] : []),
    ]);
    return changedRows(updated) > 0 ? after : undefined;
  });
}
