// The quote's life (§18): draft → open (send) → accepted | declined | expired, canceled from draft
// or open, revised into a new draft (service.ts), and accepted → converted into one invoice. Each
// action reads the quote and writes what it becomes in one batch led by an UPDATE guarded on the
// state it read (status and updated_at), its event after it only if that UPDATE changed the quote:
// of two answers racing, one wins and the other finds the quote answered.
import { serviceOf } from '../documents/schemas';
import { and, eq } from 'drizzle-orm';
import { quotes } from '../../db/schema';
import { ApiError, invalidState } from '../../errors';
import type { ServiceContext, WorkspaceContext } from '../../lib/context';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { sendInvoice } from '../invoices/actions';
import { billToOf, issuerSnapshotOf } from '../invoices/client-snapshot';
import { lineInputOf } from '../invoices/lines';
import { linkHash, linkToken } from '../invoices/links';
import { isUnnumbered, numberAtSend, QUOTE_SEQUENCE, skipNumbersInUse } from '../invoices/numbering';
import type { SendInvoiceInput } from '../invoices/schemas';
import type { InvoiceWithLines } from '../invoices/serialize';
import { enqueueQuoteEmail, queuedQuoteEmail } from './email';
import { createInvoice } from '../invoices/service';
import type { AcceptQuoteInput } from './schemas';
import { type Acceptance, type Declination, parseLines, type QuoteRow } from './serialize';
import { getQuote, getQuoteWithParties, quoteObject, quoteStillAsRead, unchangedQuote } from './service';

const refusal = (row: QuoteRow, action: string) => invalidState(`Cannot ${action} quote ${row.number}: it is ${row.status}.`);

/** The UPDATE of an action: the new columns, written only over the exact state that was read. */
const transition = (ctx: WorkspaceContext, before: QuoteRow, set: Partial<QuoteRow>) => ctx.db.update(quotes).set(set).where(unchangedQuote(ctx, before));

/** draft → open: snapshots who quotes and who is quoted (§10), and gives the quote its hosted link. */
export async function sendQuote(ctx: WorkspaceContext, id: string, input: SendInvoiceInput, linkOrigin: string): Promise<QuoteRow> {
  const sent = await retryOnRace('quote', async () => {
    const { quote: before, client, workspace } = await getQuoteWithParties(ctx, id);
    if (before.status !== 'draft') throw refusal(before, 'send');
    const now = nowIso();
    const to = input.to ?? (client.email ? [client.email] : []);
    const set: Partial<QuoteRow> = {
      status: 'open', sentAt: now, updatedAt: now,
      issuer: JSON.stringify(issuerSnapshotOf(workspace)), billTo: JSON.stringify(billToOf(client)), locale: before.locale ?? client.locale ?? workspace.locale,
      linkVersion: 1, linkHash: await linkHash(await linkToken(ctx.env, id, 1)), linkOrigin,
      ...(input.email && to.length ? queuedQuoteEmail(to, input.cc ?? [], input.message ?? null) : {}),
    };
    const after = { ...before, ...set };
    if (!isUnnumbered(before)) {
      const [updated] = await ctx.db.batch([transition(ctx, before, set), recordEvent(ctx, 'quote.sent', quoteObject(after), { ifChanged: true })]);
      return changedRows(updated) > 0 ? after : undefined;
    }
    // A draft with no number yet takes the next one now, in this batch (§20), so numbers follow the
    // order of sending; its events carry it from here on.
    const numbering = numberAtSend(ctx, quoteStillAsRead(ctx, before), QUOTE_SEQUENCE);
    const [, updated, , [current]] = await ctx.db.batch([
      numbering.bump,
      ctx.db.update(quotes).set({ ...set, number: numbering.value as unknown as string }).where(and(unchangedQuote(ctx, before), numbering.isFree)),
      recordEvent(ctx, 'quote.sent', quoteObject(after), { ifChanged: true, fill: { number: numbering.value } }),
      ctx.db.select({ number: quotes.number, updatedAt: quotes.updatedAt }).from(quotes).where(eq(quotes.id, id)),
    ]);
    if (changedRows(updated) > 0) return { ...after, number: current!.number };
    // Not sent: the quote changed (read it again), or, the draft as it was, a hand-picked number
    // stood where the counter's next one was (move past the numbers in use, and draw again).
    if (current?.updatedAt === before.updatedAt) await skipNumbersInUse(ctx, QUOTE_SEQUENCE);
    return undefined;
  });
  if (sent.emailStatus === 'queued') await enqueueQuoteEmail(ctx.env, sent.id);
  return sent;
}

export async function cancelQuote(ctx: ServiceContext, id: string): Promise<QuoteRow> {
  return retryOnRace('quote', async () => {
    const before = await getQuote(ctx, id);
    if (before.status !== 'draft' && before.status !== 'open') throw refusal(before, 'cancel');
    const set: Partial<QuoteRow> = { status: 'canceled', updatedAt: nowIso() };
    const after = { ...before, ...set };
    const [updated] = await ctx.db.batch([transition(ctx, before, set), recordEvent(ctx, 'quote.canceled', quoteObject(after), { ifChanged: true })]);
    return changedRows(updated) > 0 ? after : undefined;
  });
}

/** The client's answer: accepted (who, which PO, how) or declined (why), with where it came from. */
export type Answer = { accept: Acceptance } | { decline: Declination };

/**
 * open → accepted or declined, once. Returns the quote and whether this call answered it; a quote
 * no longer open is returned as it is (`answered: false`), for the caller to refuse or to show.
 * `read`: the quote as the caller has just read it, if it has.
 */
export async function answerQuote(ctx: WorkspaceContext, id: string, answer: Answer, read?: QuoteRow): Promise<{ quote: QuoteRow; answered: boolean }> {
  // The quote as the caller just read it (the page found it by its token) saves the first read; a lost race reads again.
  let known = read;
  return retryOnRace('quote', async () => {
    const before = known ?? (await getQuote(ctx, id));
    known = undefined;
    if (before.status !== 'open') return { quote: before, answered: false };
    const now = nowIso();
    const set: Partial<QuoteRow> =
      'accept' in answer
        ? { status: 'accepted', accepted: JSON.stringify({ ...answer.accept, at: now }), updatedAt: now }
        : { status: 'declined', declined: JSON.stringify({ ...answer.decline, at: now }), updatedAt: now };
    const after = { ...before, ...set };
    const [updated] = await ctx.db.batch([
      transition(ctx, before, set),
      recordEvent(ctx, 'accept' in answer ? 'quote.accepted' : 'quote.declined', quoteObject(after), { ifChanged: true }),
    ]);
    return changedRows(updated) > 0 ? { quote: after, answered: true } : undefined;
  });
}

/**
 * What accepting sets off: with `on_accept` other than `none`, the invoice at once (and with
 * `send_invoice`, sent). Acting for the quote's author when the client accepted on the page.
 */
export async function afterAcceptance(ctx: WorkspaceContext, quote: QuoteRow, linkOrigin: string): Promise<QuoteRow> {
  if (quote.status !== 'accepted' || quote.onAccept === 'none') return quote;
  const { quote: converted, invoice } = await convertQuote(asAuthorOf(ctx, quote), quote.id);
  if (quote.onAccept === 'send_invoice') await sendInvoice(ctx, invoice.row.id, { email: true }, linkOrigin);
  return converted;
}

/** A context whose writes are made in the name of the quote's author (rows need a user), with the actor unchanged. */
const asAuthorOf = (ctx: WorkspaceContext, quote: QuoteRow) => ('userId' in ctx ? ctx : { ...ctx, userId: quote.userId }) as ServiceContext;

export async function acceptQuote(ctx: ServiceContext, id: string, input: AcceptQuoteInput, linkOrigin: string): Promise<QuoteRow> {
  const { quote, answered } = await answerQuote(ctx, id, { accept: { name: input.name, po_number: input.po_number ?? null, method: input.method, at: '' } });
  if (!answered) throw refusal(quote, 'accept');
  return afterAcceptance(ctx, quote, linkOrigin);
}

export async function declineQuote(ctx: ServiceContext, id: string, reason: string): Promise<QuoteRow> {
  const { quote, answered } = await answerQuote(ctx, id, { decline: { reason, at: '' } });
  if (!answered) throw refusal(quote, 'decline');
  return quote;
}

/**
 * accepted → converted, with a draft invoice of the same lines, discount and exemption that quotes
 * the client's PO. The invoice is written only while the quote is still accepted and unconverted
 * (its batch's guard), and the quote turns `converted` in the same batch; the unique index on
 * invoices.quote_id backs it. Of two converts at once, one writes the invoice and the other is 409.
 */
export async function convertQuote(ctx: ServiceContext, id: string): Promise<{ quote: QuoteRow; invoice: InvoiceWithLines }> {
  const before = await getQuote(ctx, id);
  if (before.status !== 'accepted') throw alreadyConverted(before) ?? refusal(before, 'convert');
  const accepted = before.accepted ? (JSON.parse(before.accepted) as Acceptance) : null;
  const now = nowIso();
  let after: QuoteRow | undefined;
  const guard = quoteStillAsRead(ctx, before);
  try {
    const invoice = await createInvoice(
      ctx,
      {
        client_id: before.clientId, project_id: before.projectId, currency: before.currency,
        line_items: parseLines(before).map(lineInputOf) as never,
        discount: before.discount ? JSON.parse(before.discount) : null,
        tax_exemption_reason: before.taxExemptionReason, tax_exemption_code: before.taxExemptionCode,
        notes: before.notes, purchase_order: accepted?.po_number ?? null,
        // §20: the quote's date or period of supply, when it states one, is the invoice's.
        ...serviceOf(before),
        // The invoice reads in the language the quote was accepted in (§20).
        locale: before.locale,
      },
      {
        onlyIf: guard,
        quoteId: before.id,
        alongside: (invoiceId, written) => {
          after = { ...before, status: 'converted', invoiceId, updatedAt: now };
          return [
            // The quote by its own row: `guard` and `written` are EXISTS conditions that name no row to update.
            ctx.db.update(quotes).set({ status: 'converted', invoiceId, updatedAt: now }).where(and(unchangedQuote(ctx, before), written)),
            recordEvent(ctx, 'quote.converted', quoteObject(after), { ifChanged: true }),
          ];
        },
      },
    );
    return { quote: after!, invoice };
  } catch (err) {
    // Lost to another convert (or another change): say what the quote is now.
    const current = await getQuote(ctx, id);
    if (current.updatedAt !== before.updatedAt) throw alreadyConverted(current) ?? refusal(current, 'convert');
    throw err;
  }
}

const alreadyConverted = (row: QuoteRow) =>
  row.status === 'converted' ? new ApiError('invalid_state', `Quote ${row.number} is already converted into invoice ${row.invoiceId}.`) : null;
