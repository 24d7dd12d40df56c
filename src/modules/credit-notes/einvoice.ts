// A credit note as an EN 16931 e-invoice (§15, §17): a credit note (381) naming the invoice it corrects
// (BT-25), written from the credit note's one document value (documents.ts), the value its page and PDF
// print.
import type { workspaces } from '../../db/schema';
import { ApiError } from '../../errors';
import { type EInvoiceFormat, renderEInvoice } from '../documents/einvoice';
import type { DocumentValue } from '../documents/value';

/** The credit note's e-invoice (381), or 422 `einvoice_incomplete` naming every problem. */
export function creditNoteEInvoiceXml(value: DocumentValue, format: EInvoiceFormat): string {
  const rendered = renderEInvoice(value, format);
  if (rendered.xml === null) {
    throw new ApiError('einvoice_incomplete', `The credit note cannot be a valid ${format.toUpperCase()} e-invoice: ${rendered.problems.length} field(s) to fix.`, rendered.problems);
  }
  return rendered.xml;
}

/** The CII its PDF embeds as Factur-X, or null for the plain PDF (as an invoice's, §15). */
export function creditNoteFacturXCii(value: DocumentValue, workspace: Pick<typeof workspaces.$inferSelect, 'einvoicePdf'>): string | null {
  if (workspace.einvoicePdf === 'plain') return null;
  return renderEInvoice(value, 'cii').xml;
}

/** Whether the credit note is ready in `format` (for the hosted page's XML links). */
export const creditNoteReady = (value: DocumentValue, format: EInvoiceFormat) => renderEInvoice(value, format).xml !== null;
