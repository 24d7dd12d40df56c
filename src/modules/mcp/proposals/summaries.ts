// The one sentence a proposal shows the person who must say yes: read from the records the
// operation acts on, through the app with the caller's key (so a record of another workspace is a
// 404 here as anywhere), and the call's own arguments (the amount of a payment or a transfer).
import { formatMoney } from '../../../lib/money';
import type { Answer, Runner } from '../tools/run-operation';
import type { ProposedOperation } from './needs-a-yes';
import { sentencesFor } from './sentences';

type Json = Record<string, any>;

/** A read the sentence needs failed: the tool answers that failure instead of a proposal. */
export class ReadFailed extends Error {
  constructor(readonly answer: Answer) {
    super('read failed');
  }
}

async function read(run: Runner, path: string): Promise<Json> {
  const answer = await run({ method: 'GET', path });
  if (answer.status !== 200) throw new ReadFailed(answer);
  return JSON.parse(answer.text) as Json;
}

const segment = (value: unknown) => encodeURIComponent(String(value ?? ''));
const isAmount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Who a document is for: the name it was sent to, else its client's. */
async function partyOf(run: Runner, document: Json): Promise<string> {
  return document.bill_to?.name ?? (await read(run, `/v1/clients/${segment(document.client_id)}`)).name;
}

/** Roughly what crediting `lines` of `invoice` comes to, tax included (the credit note states it exactly). */
function creditedAmount(invoice: Json, lines: unknown): number {
  if (!Array.isArray(lines)) return invoice.total - (invoice.credited_amount ?? 0);
  let total = 0;
  for (const line of lines as Json[]) {
    const item = (invoice.line_items as Json[] | undefined)?.find((candidate) => candidate.id === line.line_item_id);
    if (item) {
      const share = typeof line.quantity === 'number' && item.quantity ? line.quantity / item.quantity : 1;
      total += Math.round((item.amount + item.tax) * share);
    } else if (typeof line.quantity === 'number' && isAmount(line.unit_amount)) {
      const net = Math.round(line.quantity * line.unit_amount);
      total += net + Math.round((net * (Number(line.tax_rate) || 0)) / 100);
    }
  }
  return total;
}

/** The refund's amount: the one asked for, else what is not yet refunded of the payment. */
async function refundAmount(run: Runner, args: Json): Promise<number> {
  if (isAmount(args.amount)) return args.amount;
  const payments = await read(run, `/v1/invoices/${segment(args.id)}/payments?limit=100`);
  const payment = (payments.data as Json[]).find((p) => p.id === args.payment_id);
  return payment ? payment.amount - (payment.amount_refunded ?? 0) : 0;
}

export async function proposalSummary(operation: ProposedOperation, args: Json, run: Runner, locale: string): Promise<string> {
  const sentences = sentencesFor(locale);
  const money = (amount: number, currency: string) => formatMoney(amount, currency, locale);
  const numberOf = (document: Json) => document.number ?? `(${sentences.draft} ${document.id})`;
  if (operation === 'createTransfer') {
    const amount = isAmount(args.source_amount) && typeof args.source_currency === 'string' ? money(args.source_amount, args.source_currency) : String(args.quote_id ?? '?');
    return sentences.createTransfer({ amount, party: args.recipient?.name ?? '?', number: '', currency: args.target_currency ?? '?' });
  }
  if (operation === 'sendQuote' || operation === 'acceptQuote') {
    const quote = await read(run, `/v1/quotes/${segment(args.id)}`);
    return sentences[operation]({ amount: money(quote.total, quote.currency), party: await partyOf(run, quote), number: numberOf(quote) });
  }
  const invoice = await read(run, `/v1/invoices/${segment(args.id)}`);
  const party = await partyOf(run, invoice);
  const amount = {
    sendInvoice: () => invoice.total,
    voidInvoice: () => invoice.total,
    recordInvoicePayment: () => (isAmount(args.amount) ? args.amount : invoice.amount_due),
    createCreditNote: () => creditedAmount(invoice, args.lines),
    refundInvoicePayment: () => refundAmount(run, args),
  }[operation];
  return sentences[operation]({ amount: money(await amount(), invoice.currency), party, number: numberOf(invoice) });
}
