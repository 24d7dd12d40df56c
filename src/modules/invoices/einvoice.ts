// An invoice as an EN 16931 e-invoice (§15): the XML exports, their readiness check, and the CII that the
// Factur-X PDF embeds, each written from the invoice's one document value (document-for.ts), the very value
// its page and PDF print. A sent invoice is read from its snapshots; a draft (check only) from the workspace
// and the client as they are now.
import type { workspaces } from '../../db/schema';
import { ApiError, invalidState } from '../../errors';
import { checkEInvoice, type EInvoiceFormat, type EInvoiceProblem, renderEInvoice } from '../documents/einvoice';
import type { DocumentValue } from '../documents/value';

type Workspace = Pick<typeof workspaces.$inferSelect, 'einvoicePdf'>;

/** What keeps the invoice from being a valid e-invoice in `format` (empty: ready). Drafts too. */
export function eInvoiceProblems(value: DocumentValue, format: EInvoiceFormat): EInvoiceProblem[] {
  return checkEInvoice(value, format);
}

/** The XML of an invoice that is no longer a draft; 409 for a draft, 422 `einvoice_incomplete` naming every problem. */
export function eInvoiceXml(value: DocumentValue, format: EInvoiceFormat): string {
  if (value.state.draft) {
    throw invalidState(`Invoice ${value.number} is a draft; send it before exporting its e-invoice.`);
  }
  const rendered = renderEInvoice(value, format);
  if (rendered.xml === null) {
    throw new ApiError('einvoice_incomplete', `The invoice cannot be a valid ${format.toUpperCase()} e-invoice yet: ${rendered.problems.length} field(s) to fix.`, rendered.problems);
  }
  return rendered.xml;
}

/**
 * The CII the invoice's PDF embeds as Factur-X, or null for the plain PDF: drafts, a workspace that chose
 * `einvoice_pdf: "plain"`, and invoices not ready in CII.
 */
export function facturXCii(value: DocumentValue, workspace: Workspace): string | null {
  if (value.state.draft || workspace.einvoicePdf === 'plain') return null;
  return renderEInvoice(value, 'cii').xml;
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
