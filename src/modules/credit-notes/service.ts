// Credit notes (§17): the one correction of an invoice that has left draft. A credit note takes
// lines of the invoice (at most the quantity not yet credited) or lines of its own, through the one
// tax engine; its total first lowers what is due (pre-payment part), and the rest (post-payment
// part) is refunded from one payment in the same operation. The invoice's new amounts, the credit
// note with its number from the workspace's own sequence, its lines, the refund (reserved `pending`
// when it goes through a provider), the email and the events are one D1 batch led by the invoice's
// guarded UPDATE: a lost race writes nothing and runs again on the state that won, so concurrent
// credit notes never add up to more than the total, nor their refunds to more than a payment's rest.
// The provider is asked only after that batch (payments/refund-settlement.ts).
import { and, asc, desc, eq, inArray, isNotNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { creditNoteLineItems, creditNotes, emailDeliveries, invoiceLineItems, invoices, payments, refunds } from '../../db/schema';
import { ApiError, type ErrorDetail, invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { type DocumentLineInput, type DocumentTotals, documentTotals } from '../documents/totals';
import { changedRows, insertIf, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { divRoundHalfAwayFromZero, fromScaledInteger, taxShare, toScaledInteger } from '../../lib/money';
import { DEFAULT_UNIT } from '../../lib/units';
import { nowIso, todayIn } from '../../lib/time';
import { enqueueEmailsQuietly, outboxRow } from '../emails/outbox';
import { recordEvent } from '../events/record';
import { bumpCounter, CREDIT_NOTE_SEQUENCE, currentDefaultNumber } from '../invoices/numbering';
import { invoiceObject } from '../invoices/service';
import { parseBreakdown } from '../invoices/lines';
import { deliverSent, parsedBillTo } from '../invoices/sent-delivery';
import { wroteInvoice } from '../invoices/wrote-invoice';
import { amountDue, type BillToSnapshot, invoiceSubtotal, type InvoiceRow, type InvoiceWithLines, type IssuerSnapshot } from '../invoices/serialize';
import { askProviderAndSettle } from '../payments/refund-settlement';
import { requireProviderOf, withinPayment } from '../payments/refunds';
import { type PaymentRow, type RefundRow, serializeRefund } from '../payments/serialize';
import type { CreateCreditNoteInput } from './schemas';
import { creditNoteLinkHash, type CreditNoteLineRow, type CreditNoteRow, type CreditNoteWithLines, serializeCreditNote } from './serialize';

const refuse = (details: ErrorDetail[]): never => {
  throw new ApiError('validation_failed', 'The request is not valid.', details);
};

/** The invoice, its lines, what of each line is credited, its payments and what is refunded of each: one round trip. */
async function readInvoiceState(ctx: WorkspaceContext, invoiceId: string) {
  const notesOfInvoice = ctx.db.select({ id: creditNotes.id }).from(creditNotes).where(and(eq(creditNotes.invoiceId, invoiceId), inWorkspace(ctx, creditNotes)));
  const [rows, lines, credited, paid, refunded] = await ctx.db.batch([
    ctx.db.select().from(invoices).where(and(eq(invoices.id, invoiceId), inWorkspace(ctx, invoices))),
    ctx.db.select().from(invoiceLineItems).where(eq(invoiceLineItems.invoiceId, invoiceId)).orderBy(asc(invoiceLineItems.position)),
    ctx.db
      .select({ lineId: creditNoteLineItems.invoiceLineItemId, milli: sql<number>`sum(${creditNoteLineItems.quantityMilli})` })
      .from(creditNoteLineItems)
      .where(and(inArray(creditNoteLineItems.creditNoteId, notesOfInvoice), isNotNull(creditNoteLineItems.invoiceLineItemId)))
      .groupBy(creditNoteLineItems.invoiceLineItemId),
    // Newest first: the default payment to refund from is the latest one that covers the refund.
    ctx.db.select().from(payments).where(and(eq(payments.invoiceId, invoiceId), inWorkspace(ctx, payments))).orderBy(desc(payments.paidOn), desc(payments.id)),
    ctx.db
      .select({ paymentId: refunds.paymentId, amount: sql<number>`sum(${refunds.amount})` })
      .from(refunds)
      .where(and(eq(refunds.invoiceId, invoiceId), inWorkspace(ctx, refunds), ne(refunds.status, 'failed')))
      .groupBy(refunds.paymentId),
  ]);
  const row = rows[0];
  if (!row) throw notFound('Invoice');
  return {
    invoice: { row, lines } as InvoiceWithLines,
    credited: new Map(credited.map((c) => [c.lineId!, Number(c.milli)])),
    payments: paid,
    refunded: new Map(refunded.map((r) => [r.paymentId, Number(r.amount)])),
  };
}

type State = Awaited<ReturnType<typeof readInvoiceState>>;

/** A credit-note line before it has its note's id. */
type PlannedLine = Omit<CreditNoteLineRow, 'creditNoteId'>;

type Figures = { subtotal: number; discountTotal: number; tax: number; total: number; taxBreakdown: string };

/** The lines and amounts the request asks to credit, checked against what the invoice still has to credit. */
export function plannedContent(state: State, input: CreateCreditNoteInput): { lines: PlannedLine[]; figures: Figures } {
  const inv = state.invoice.row;
  if (!input.lines) {
    // The whole invoice, mirrored exactly: its lines and its amounts as stored.
    if (inv.creditedAmount > 0) refuse([{ path: 'lines', message: `Invoice ${inv.number} is already partly credited; name the lines to credit.` }]);
    return {
      lines: state.invoice.lines.map((l) => ({ ...l, id: newId('creditNoteLine'), invoiceLineItemId: l.id })),
      figures: { subtotal: invoiceSubtotal(inv), discountTotal: inv.discountTotal, tax: inv.tax, total: inv.total, taxBreakdown: inv.taxBreakdown ?? '[]' },
    };
  }
  const byId = new Map(state.invoice.lines.map((l) => [l.id, l]));
  const left = new Map(state.invoice.lines.map((l) => [l.id, l.quantityMilli - (state.credited.get(l.id) ?? 0)]));
  const problems: ErrorDetail[] = [];
  const engine: DocumentLineInput[] = [];
  const described: { description: string; unit: string; invoiceLineItemId: string | null }[] = [];
  input.lines.forEach((line, i) => {
    if ('line_item_id' in line) {
      const source = byId.get(line.line_item_id);
      if (!source) return void problems.push({ path: `lines.${i}.line_item_id`, message: `Not a line of invoice ${inv.number}.` });
      const rest = left.get(source.id)!;
      const quantity = line.quantity !== undefined ? toScaledInteger(line.quantity, 3)! : rest;
      if (rest <= 0) return void problems.push({ path: `lines.${i}.line_item_id`, message: 'This line is already credited in full.' });
      if (quantity > rest) return void problems.push({ path: `lines.${i}.quantity`, message: `At most ${fromScaledInteger(rest, 3)}, the quantity of the line not yet credited.` });
      left.set(source.id, rest - quantity);
      engine.push({
        quantity: fromScaledInteger(quantity, 3), unit_amount: source.unitAmount, discount_percent: fromScaledInteger(source.discountPercentMilli, 3),
        tax_category: source.taxCategory, tax_rate: fromScaledInteger(source.taxRateMilli, 3),
      });
      described.push({ description: source.description, unit: source.unit, invoiceLineItemId: source.id });
    } else {
      engine.push({ quantity: line.quantity, unit_amount: line.unit_amount, discount_percent: 0, tax_category: line.tax_category ?? null, tax_rate: line.tax_rate });
      described.push({ description: line.description, unit: line.unit ?? DEFAULT_UNIT, invoiceLineItemId: null });
    }
  });
  if (problems.length) refuse(problems);

  const issuer = inv.issuer ? (JSON.parse(inv.issuer) as IssuerSnapshot) : null;
  const base = {
    lines: engine, tax_rounding: inv.taxRounding, issuer_has_vat_id: Boolean(issuer?.vat_id),
    tax_exemption_reason: inv.taxExemptionReason, tax_exemption_code: inv.taxExemptionCode, lines_path: 'lines',
    // Each exempt group keeps the reason the invoice gave it (a small business's note on E, §20).
    exemption_defaults: Object.fromEntries(parseBreakdown(inv.taxBreakdown).flatMap((g) => (g.exemption_reason ? [[g.category, g.exemption_reason]] : []))),
  };
  let figures: DocumentTotals = documentTotals(base);
  // The invoice's document discount, in proportion to what is credited.
  const invoiceSub = invoiceSubtotal(inv);
  if (inv.discountTotal > 0 && invoiceSub > 0) {
    const part = Number(divRoundHalfAwayFromZero(BigInt(figures.subtotal) * BigInt(inv.discountTotal), BigInt(invoiceSub)));
    const reason = inv.discount ? ((JSON.parse(inv.discount) as { reason: string | null }).reason ?? null) : null;
    if (part > 0) figures = documentTotals({ ...base, discount: { amount: part, reason } });
  }
  const lines: PlannedLine[] = figures.lines.map((f, position) => ({
    id: newId('creditNoteLine'), invoiceLineItemId: described[position]!.invoiceLineItemId, position,
    description: described[position]!.description, quantityMilli: toScaledInteger(f.quantity, 3)!, unitAmount: f.unit_amount,
    taxRateMilli: toScaledInteger(f.tax_rate, 3)!, amount: f.amount, tax: f.tax ?? 0, unit: described[position]!.unit,
    discountPercentMilli: toScaledInteger(f.discount_percent, 3)!, discountAmount: f.discount_amount, taxCategory: f.tax_category,
  }));
  return {
    lines,
    figures: { subtotal: figures.subtotal, discountTotal: figures.discount_total, tax: figures.tax, total: figures.total, taxBreakdown: JSON.stringify(figures.tax_breakdown) },
  };
}

/** The payment the post-payment part is refunded from: the one named, or the latest whose unrefunded rest covers it. */
function refundSource(state: State, input: CreateCreditNoteInput, amount: number): PaymentRow {
  const rest = (p: PaymentRow) => p.amount - (state.refunded.get(p.id) ?? 0);
  if (input.refund_payment_id) {
    const named = state.payments.find((p) => p.id === input.refund_payment_id);
    if (!named) refuse([{ path: 'refund_payment_id', message: `Not a payment of invoice ${state.invoice.row.number}.` }]);
    if (rest(named!) < amount) refuse([{ path: 'refund_payment_id', message: `What is not yet refunded of this payment (${rest(named!)}) does not cover the ${amount} to give back.` }]);
    return named!;
  }
  const found = state.payments.find((p) => rest(p) >= amount);
  if (!found) refuse([{ path: 'refund_payment_id', message: `No single payment of the invoice has ${amount} left to refund; name one in refund_payment_id, or credit less.` }]);
  return found!;
}

// Credit notes of one invoice issued at once each lose the race to the one before: every round one
// of them is written, so each tries again more often than an edit would, until it fits or is refused.
const CREDIT_ATTEMPTS = 8;

// D1 allows 100 bound parameters per statement; a line has 14 columns, plus the guard's.
const LINES_PER_STATEMENT = 6;

function insertLines(db: Db, rows: CreditNoteLineRow[], onlyIf: SQL) {
  const statements = [];
  for (let i = 0; i < rows.length; i += LINES_PER_STATEMENT) {
    const values = sql.join(
      rows.slice(i, i + LINES_PER_STATEMENT).map((r) => sql`(${r.id}, ${r.creditNoteId}, ${r.invoiceLineItemId}, ${r.position}, ${r.description}, ${r.quantityMilli}, ${r.unitAmount}, ${r.taxRateMilli}, ${r.amount}, ${r.tax}, ${r.unit}, ${r.discountPercentMilli}, ${r.discountAmount}, ${r.taxCategory})`),
      sql`, `,
    );
    statements.push(db.insert(creditNoteLineItems).select(sql`SELECT * FROM (VALUES ${values}) WHERE ${onlyIf}`));
  }
  return statements;
}

export type IssuedCreditNote = CreditNoteWithLines & { invoice: InvoiceWithLines };

export async function createCreditNote(
  ctx: ServiceContext, invoiceId: string, input: CreateCreditNoteInput, linkOrigin: string,
): Promise<IssuedCreditNote> {
  const id = newId('creditNote');
  const refundId = newId('refund');
  const linkHash = await creditNoteLinkHash(ctx.env, id, 1);
  // A payment to refund online needs its provider connected; checked before anything is written.
  let checkedProviderOf: string | undefined;

  const issued = await retryOnRace('invoice', async () => {
    const state = await readInvoiceState(ctx, invoiceId);
    const before = state.invoice.row;
    if (before.status === 'draft' || before.status === 'void') {
      throw invalidState(`Invoice ${before.number} is ${before.status}: only an open or paid invoice is credited${before.status === 'draft' ? '; edit the draft instead' : ''}.`);
    }
    const { lines: planned, figures } = plannedContent(state, input);
    if (figures.total <= 0) refuse([{ path: 'lines', message: 'A credit note credits an amount above 0.' }]);
    const creditable = before.total - before.creditedAmount;
    if (figures.total > creditable) {
      refuse([{ path: 'lines', message: `Credit notes together may not exceed the invoice's total (${before.total}); ${creditable} is left to credit, this one is ${figures.total}.` }]);
    }
    const pre = Math.min(figures.total, amountDue(before));
    const post = figures.total - pre;

    // The post-payment part is reserved here, `pending` in this batch when it goes back through a
    // provider, which is asked only once the batch has written it (payments/refund-settlement.ts).
    let refund: RefundRow | null = null;
    let payment: PaymentRow | null = null;
    if (post > 0) {
      payment = refundSource(state, input, post);
      if (payment.source === 'online' && checkedProviderOf !== payment.id) {
        await requireProviderOf(ctx, payment);
        checkedProviderOf = payment.id;
      }
      refund = {
        id: refundId, workspaceId: ctx.workspaceId, invoiceId, paymentId: payment.id, amount: post, tax: taxShare(post, payment.tax ?? 0, payment.amount),
        currency: payment.currency, status: payment.source === 'online' ? 'pending' : 'succeeded', providerRefundId: null,
        reason: `Credit note ${id}`, refundedOn: todayIn(ctx.timeZone), createdAt: nowIso(),
      };
    }

    const now = nowIso();
    const creditedAmount = before.creditedAmount + figures.total;
    const amountPaid = before.amountPaid - post;
    const settles = before.status === 'open' && before.total - creditedAmount - amountPaid <= 0;
    const set: Partial<InvoiceRow> = {
      creditedAmount, amountPaid, updatedAt: now,
      creditNoteIds: JSON.stringify([...(before.creditNoteIds ? (JSON.parse(before.creditNoteIds) as string[]) : []), id]),
      ...(settles ? { status: 'paid' as const, paidAt: now } : {}),
    };
    const invoiceAfter: InvoiceWithLines = { ...state.invoice, row: { ...before, ...set } };
    const row: CreditNoteRow = {
      id, userId: ctx.userId, workspaceId: ctx.workspaceId, invoiceId, clientId: before.clientId, number: '', status: 'issued', reason: input.reason,
      memo: input.memo ?? null, issueDate: todayIn(ctx.timeZone), currency: before.currency, ...figures, taxRounding: before.taxRounding,
      prePaymentAmount: pre, postPaymentAmount: post, refundId: refund?.id ?? null, linkVersion: 1, linkHash, createdAt: now,
      // It speaks its invoice's language (snapshotted when the invoice was sent) unless given its own (§20).
      locale: input.locale ?? before.locale,
    };
    const lines: CreditNoteLineRow[] = planned.map((l) => ({ ...l, creditNoteId: id }));
    const note: CreditNoteWithLines = { row, lines };
    const number = currentDefaultNumber(ctx, CREDIT_NOTE_SEQUENCE);
    const billTo = before.billTo ? (JSON.parse(before.billTo) as BillToSnapshot) : null;
    const email = input.email && billTo?.email
      ? outboxRow(ctx, { invoiceId, kind: 'credit_note', to: [billTo.email], cc: [], message: null, linkOrigin, creditNoteId: id })
      : null;

    const written = wroteInvoice(ctx, invoiceId, now);
    // Guarded in SQL too: the credit notes stay within the total, and the refunds within their payment.
    const statements: BatchItem<'sqlite'>[] = [
      ctx.db
        .update(invoices)
        .set(set)
        .where(and(
          eq(invoices.id, invoiceId), inWorkspace(ctx, invoices), eq(invoices.status, before.status), eq(invoices.updatedAt, before.updatedAt),
          sql`${invoices.creditedAmount} + ${figures.total} <= ${invoices.total}`, payment ? withinPayment(payment, post) : undefined,
        )),
      bumpCounter(ctx, written, CREDIT_NOTE_SEQUENCE),
      insertIf(ctx.db, creditNotes, { ...row, number: number as unknown as string }, written),
      recordEvent(ctx, 'credit_note.issued', serializeCreditNote(note), { ifChanged: true, fill: { number } }),
      recordEvent(ctx, 'invoice.credited', invoiceObject(ctx, invoiceAfter), { ifChanged: true, data: { credit_note: serializeCreditNote(note) }, fillData: { '$.credit_note.number': number } }),
      ...(settles ? [recordEvent(ctx, 'invoice.paid', invoiceObject(ctx, invoiceAfter), { ifChanged: true })] : []),
      ...insertLines(ctx.db, lines, written),
      ...(refund
        ? [
            insertIf(ctx.db, refunds, { ...refund, reason: sql`'Credit note ' || ${number}` as unknown as string }, written),
            recordEvent(ctx, 'invoice.payment_refunded', invoiceObject(ctx, invoiceAfter), {
              ifChanged: true, data: { refund: serializeRefund(refund) }, fillData: { '$.refund.reason': sql`'Credit note ' || ${number}` },
            }),
          ]
        : []),
      ...(email ? [insertIf(ctx.db, emailDeliveries, email, written)] : []),
      ctx.db.select({ number: creditNotes.number }).from(creditNotes).where(eq(creditNotes.id, id)),
    ];
    const results = await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    if (changedRows(results[0]) === 0) return undefined; // another change won the invoice: read it again
    const [{ number: issuedNumber }] = results.at(-1) as { number: string }[] as [{ number: string }];
    return { row: { ...row, number: issuedNumber }, lines, invoice: invoiceAfter, emailId: email?.id, refund, payment };
  }, CREDIT_ATTEMPTS);
  const { refund, payment, ...note } = issued;
  if (refund && payment && refund.status === 'pending') await askProviderAndSettle(ctx, payment, { ...refund, reason: `Credit note ${note.row.number}` });
  if (note.emailId) await enqueueEmailsQuietly(ctx.env, [note.emailId]);
  await deliverSent(ctx, { kind: 'credit_note', id: note.row.id, object: serializeCreditNote(note), buyer: parsedBillTo(note.invoice.row.billTo) });
  return note;
}

export async function getCreditNote(ctx: WorkspaceContext, id: string): Promise<CreditNoteWithLines> {
  const [rows, lines] = await ctx.db.batch([
    ctx.db.select().from(creditNotes).where(and(eq(creditNotes.id, id), inWorkspace(ctx, creditNotes))),
    ctx.db.select().from(creditNoteLineItems).where(eq(creditNoteLineItems.creditNoteId, id)).orderBy(asc(creditNoteLineItems.position)),
  ]);
  if (!rows[0]) throw notFound('Credit note');
  return { row: rows[0], lines };
}

export async function listInvoiceCreditNotes(ctx: WorkspaceContext, invoiceId: string, limit: number, beforeId?: string) {
  return ctx.db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.invoiceId, invoiceId), inWorkspace(ctx, creditNotes), beforeId ? lt(creditNotes.id, beforeId) : undefined))
    .orderBy(desc(creditNotes.id))
    .limit(limit + 1);
}
