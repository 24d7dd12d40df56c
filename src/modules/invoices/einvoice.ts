// An invoice as an EN 16931 e-invoice (§15): the XML exports, their readiness check, and the CII that the
// Factur-X PDF embeds. A sent invoice is read from its snapshots (issuer, bill_to, payment instructions), so
// its XML says what its PDF says; a draft (check only) from the workspace and the client as they are now.
import type { clients, workspaces } from '../../db/schema';
import { ApiError, invalidState } from '../../errors';
import { checkEInvoice, type EInvoiceFormat, type EInvoiceProblem, renderEInvoice } from '../documents/einvoice';
import { toEInvoiceDocument } from '../documents/einvoice/from-invoice';
import { billToOf, issuerSnapshotOf } from './client-snapshot';
import { serializeInvoice, type InvoiceWithLines } from './serialize';

type Found = { invoice: InvoiceWithLines; workspace: typeof workspaces.$inferSelect; client?: typeof clients.$inferSelect };

function eInvoiceDocumentOf({ invoice, workspace, client }: Found) {
  const shown = serializeInvoice(invoice.row, invoice.lines, invoice.row.issueDate);
  const draft = invoice.row.status === 'draft';
  return toEInvoiceDocument(
    {
      ...shown,
      issuer: shown.issuer ?? (draft ? issuerSnapshotOf(workspace) : null),
      bill_to: shown.bill_to ?? (draft && client ? billToOf(client) : null),
      buyer_reference: shown.buyer_reference ?? (draft ? (client?.buyerReference ?? null) : null),
    },
    draft ? workspace.paymentInstructions : invoice.row.paymentInstructions,
  );
}

/** What keeps the invoice from being a valid e-invoice in `format` (empty: ready). Drafts too. */
export function eInvoiceProblems(found: Found, format: EInvoiceFormat): EInvoiceProblem[] {
  return checkEInvoice(eInvoiceDocumentOf(found), format);
}

/** The XML of an invoice that is no longer a draft; 409 for a draft, 422 `einvoice_incomplete` naming every problem. */
export function eInvoiceXml(found: Found, format: EInvoiceFormat): string {
  if (found.invoice.row.status === 'draft') {
    throw invalidState(`Invoice ${found.invoice.row.number} is a draft; send it before exporting its e-invoice.`);
  }
  const rendered = renderEInvoice(eInvoiceDocumentOf(found), format);
  if (rendered.xml === null) {
    throw new ApiError('einvoice_incomplete', `The invoice cannot be a valid ${format.toUpperCase()} e-invoice yet: ${rendered.problems.length} field(s) to fix.`, rendered.problems);
  }
  return rendered.xml;
}

/**
 * The CII the invoice's PDF embeds as Factur-X, or null for the plain PDF: drafts, a workspace that chose
 * `einvoice_pdf: "plain"`, and invoices not ready in CII.
 */
export function facturXCii(found: Found): string | null {
  if (found.invoice.row.status === 'draft' || found.workspace.einvoicePdf === 'plain') return null;
  const rendered = renderEInvoice(eInvoiceDocumentOf(found), 'cii');
  return rendered.xml;
}

/** The XML as a download named by the document's number and its syntax: `INV-000042.cii.xml` (§20). */
export function xmlResponse(number: string, xml: string, format: EInvoiceFormat): Response {
  const filename = `${number.replace(/[^\w.#-]/g, '_')}.${format}`;
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}.xml"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
