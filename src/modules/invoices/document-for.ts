// The document value (documents/value.ts) of one invoice of a workspace, built once per read: the invoice
// as the API shows it, with the parties, locale and payment instructions it was sent with, or for a draft
// the ones sending would snapshot now (the workspace's issuer, the client, the workspace's locale), so a
// preview shows exactly what will be frozen (§20). The page, the PDF, the emails and the XML all render it.
import type { clients, workspaces } from '../../db/schema';
import type { WorkspaceContext } from '../../lib/context';
import { todayIn } from '../../lib/time';
import { type InvoiceSource, invoiceValue } from '../documents/from-invoice';
import { readLocalizedText } from '../documents/localized-text';
import { type PrintedDocument, printedDocument } from '../documents/render/printed';
import type { DocumentValue } from '../documents/value';
import { billToOf, issuerSnapshotOf } from './client-snapshot';
import { invoiceLinks } from './links';
import { serializeInvoice, type InvoiceWithLines } from './serialize';
import { getInvoiceWithParties } from './service';

type Workspace = typeof workspaces.$inferSelect;
type Client = typeof clients.$inferSelect;
export type InvoiceFound = { invoice: InvoiceWithLines; workspace: Workspace; client?: Client };

/**
 * The value of an invoice already read with its workspace (and, for a draft, its client). With `origin`,
 * its links too (a page or an email needs them; the XML does not).
 */
export async function invoiceValueOf(ctx: Pick<WorkspaceContext, 'env'>, found: InvoiceFound, origin?: string): Promise<DocumentValue> {
  return invoiceValue(await invoiceSourceOf(ctx, found, origin));
}

/** What the value is built from: the invoice as the API shows it, its parties resolved (a credit note's value reads its invoice's). */
export async function invoiceSourceOf(ctx: Pick<WorkspaceContext, 'env'>, { invoice, workspace, client }: InvoiceFound, origin?: string): Promise<InvoiceSource> {
  const { row } = invoice;
  const today = todayIn(workspace.timeZone);
  const shown = serializeInvoice(row, invoice.lines, today);
  // Snapshotted together at send; a draft reads in its own locale, else its client's, else the workspace's.
  const sent = row.status !== 'draft';
  const links = origin ? await invoiceLinks(ctx.env, origin, row) : { hosted_url: null, pdf_url: null };
  return {
    ...shown,
    // A draft numbered at send has none yet (§20): its id stands in, and DRAFT is printed where it goes.
    number: row.number,
    unnumbered: shown.number === null,
    issuer: shown.issuer ?? (sent ? null : issuerSnapshotOf(workspace)),
    bill_to: shown.bill_to ?? (!sent && client ? billToOf(client) : null),
    buyer_reference: shown.buyer_reference ?? (sent ? null : (client?.buyerReference ?? null)),
    locale: row.locale ?? (sent ? workspace.locale : (client?.locale ?? workspace.locale)),
    payment_instructions: readLocalizedText(sent ? row.paymentInstructions : workspace.paymentInstructions),
    hosted_url: links.hosted_url,
    pdf_url: links.pdf_url,
  };
}

/** The printed form of an invoice of the caller's workspace by its id: everything it needs in one D1 round trip. */
export async function documentById(ctx: WorkspaceContext, id: string, origin: string): Promise<PrintedDocument> {
  return printedDocument(await invoiceValueOf(ctx, await getInvoiceWithParties(ctx, id), origin));
}

/** The printed form of an invoice already read with its workspace. */
export async function documentOf(ctx: Pick<WorkspaceContext, 'env'>, found: InvoiceFound, origin: string): Promise<PrintedDocument> {
  return printedDocument(await invoiceValueOf(ctx, found, origin));
}
