// The quote as a document for people (§18, §20): its one document value (documents/from-quote.ts),
// printed with the invoice's layout (documents/render/printed.ts) in a quote's words: its title, "valid
// until" for the due date, its terms where an invoice says how to pay, and no amount due. A draft shows
// the issuer and the client as sending would snapshot them now.
import type { clients, workspaces } from '../../db/schema';
import { todayIn } from '../../lib/time';
import { quoteValue } from '../documents/from-quote';
import { quoteLabels } from '../documents/labels/quote';
import { formatDate, type PrintedDocument, printedDocument } from '../documents/render/printed';
import { billToOf, issuerSnapshotOf } from '../invoices/client-snapshot';
import { quoteLinks } from './links';
import { type Acceptance, type Declination, type QuoteRow, serializeQuote } from './serialize';

export type QuoteDocument = PrintedDocument & {
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
  const shown = serializeQuote(quote);
  const expired = quote.status === 'expired' || pastValidity(quote, workspace.timeZone);
  const links = await quoteLinks(env, origin, quote);
  const value = quoteValue({
    ...shown,
    // A draft numbered at send has none yet (§20): its id stands in, and DRAFT is printed where it goes.
    number: quote.number,
    unnumbered: shown.number === null,
    issuer: shown.issuer ?? issuerSnapshotOf(workspace),
    bill_to: shown.bill_to ?? billToOf(client),
    expired,
    locale,
    hosted_url: links.hosted_url,
    pdf_url: links.pdf_url,
  });
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
  return { ...printedDocument(value), quoteStatus: expired ? 'expired' : quote.status, outcome, quoteLabels: q };
}
