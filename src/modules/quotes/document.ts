// The quote as a document for people (§18): the invoice's document shape (render/document.ts), so
// the page and the PDF render it as they render an invoice, with a quote's words: its title,
// "valid until" for the due date, its terms where an invoice says how to pay, and no amount due.
import type { clients, workspaces } from '../../db/schema';
import { formatMoney, fromScaledInteger } from '../../lib/money';
import { todayIn } from '../../lib/time';
import { quoteLabels } from '../documents/labels/quote';
import { billToOf } from '../invoices/client-snapshot';
import { formatDate, type InvoiceDocument } from '../invoices/render/document';
import type { BillToSnapshot, IssuerSnapshot } from '../invoices/serialize';
import { issuerSnapshotOf } from '../invoices/client-snapshot';
import { quoteLinks } from './links';
import { type Acceptance, type Declination, parseLines, type QuoteRow } from './serialize';

export type QuoteDocument = InvoiceDocument & {
  quoteStatus: QuoteRow['status'];
  /** Why no form is offered, or what the answer was, in the quote's language. */
  outcome: string | null;
  quoteLabels: ReturnType<typeof quoteLabels>;
};

type Parties = { quote: QuoteRow; workspace: typeof workspaces.$inferSelect; client: typeof clients.$inferSelect };

/** Open but past its validity in the workspace's time zone: the cron will expire it; the page already offers no form. */
export const pastValidity = (quote: QuoteRow, timeZone: string) => quote.status === 'open' && quote.validUntil < todayIn(timeZone);

/** The quote's language: its own (snapshotted at send), else a draft follows its client's, else the workspace's (§20). */
export const quoteLocale = ({ quote, workspace, client }: Parties) => quote.locale ?? client.locale ?? workspace.locale;

export async function quoteDocumentOf(env: Env, { quote, workspace, client }: Parties, origin: string): Promise<QuoteDocument> {
  const locale = quoteLocale({ quote, workspace, client });
  const q = quoteLabels(locale);
  // A quote bills no one yet: its client is its recipient (§20), never "Bill to".
  const labels = { ...q, invoice: q.quote, due: q.validUntil, howToPay: q.terms, invoiceFrom: q.quoteFrom, billTo: q.recipient };
  const money = (amount: number) => formatMoney(amount, quote.currency, locale);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const issuer: IssuerSnapshot = quote.issuer ? JSON.parse(quote.issuer) : issuerSnapshotOf(workspace);
  const billTo: BillToSnapshot = quote.billTo ? JSON.parse(quote.billTo) : billToOf(client);
  const expired = quote.status === 'expired' || pastValidity(quote, workspace.timeZone);
  const banners: Partial<Record<QuoteRow['status'], [string, string]>> = {
    draft: ['DRAFT', q.draft], accepted: ['PAID', q.bannerAccepted], converted: ['PAID', q.bannerAccepted],
    declined: ['VOID', q.bannerDeclined], canceled: ['VOID', q.bannerCanceled], expired: ['VOID', q.bannerExpired],
  };
  const shown = expired ? (['VOID', q.bannerExpired] as [string, string]) : banners[quote.status];
  const accepted = quote.accepted ? (JSON.parse(quote.accepted) as Acceptance) : null;
  const declined = quote.declined ? (JSON.parse(quote.declined) as Declination) : null;
  const when = (at: string) => formatDate(at.slice(0, 10), locale);
  const outcome = accepted
    ? q.acceptedBy(accepted.name, when(accepted.at))
    : declined
      ? q.declinedOn(when(declined.at))
      : expired
        ? q.expiredNotice
        : quote.status === 'canceled'
          ? q.canceledNotice
          : null;
  const links = await quoteLinks(env, origin, quote);
  return {
    number: quote.number,
    status: 'open',
    banner: (shown?.[0] ?? null) as InvoiceDocument['banner'],
    bannerText: shown?.[1] ?? null,
    issuer,
    billTo,
    issueDate: formatDate(quote.issueDate, locale),
    dueDate: formatDate(quote.validUntil, locale),
    currency: quote.currency,
    lines: parseLines(quote).map((line) => ({
      description: line.description,
      quantity: number.format(fromScaledInteger(line.quantityMilli, 3)),
      unitPrice: money(line.unitAmount),
      taxRate: `${number.format(fromScaledInteger(line.taxRateMilli, 3))} %`,
      tax: quote.taxRounding === 'group' ? '—' : money(line.tax),
      amount: money(line.amount),
    })),
    subtotal: money(quote.taxableAmount + quote.discountTotal),
    discount: quote.discountTotal ? money(-quote.discountTotal) : null,
    tax: money(quote.tax),
    total: money(quote.total),
    amountPaid: money(0),
    amountDue: money(quote.total),
    notes: quote.notes,
    paymentInstructions: quote.terms,
    locale,
    labels,
    hostedUrl: links.hosted_url,
    pdfUrl: links.pdf_url,
    payable: false,
    title: q.quoteFrom(quote.number, issuer.legal_name ?? issuer.name),
    quoteStatus: expired ? 'expired' : quote.status,
    outcome,
    quoteLabels: q,
  };
}
