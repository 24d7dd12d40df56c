// A credit note as an EN 16931 e-invoice (§15, §17): a credit note (381) naming the invoice it
// corrects (BT-25), with the invoice's parties and references. Pure: the same function serves the
// API, the hosted page, the Factur-X PDF and the validation script.
import type { workspaces } from '../../db/schema';
import { ApiError } from '../../errors';
import { type EInvoiceFormat, renderEInvoice } from '../documents/einvoice';
import { creditNoteToEInvoiceDocument } from '../documents/einvoice/from-invoice';
import { type InvoiceWithLines, serializeInvoice } from '../invoices/serialize';
import { type CreditNoteWithLines, serializeCreditNote } from './serialize';

type Found = { note: CreditNoteWithLines; invoice: InvoiceWithLines; workspace: Pick<typeof workspaces.$inferSelect, 'einvoicePdf'> };

function eInvoiceDocumentOf(found: Found) {
  const invoice = serializeInvoice(found.invoice.row, found.invoice.lines, found.invoice.row.issueDate);
  // A credited invoice was sent, so it has its number (§20).
  return creditNoteToEInvoiceDocument(serializeCreditNote(found.note), { ...invoice, number: found.invoice.row.number });
}

/** The credit note's e-invoice (381), or 422 `einvoice_incomplete` naming every problem. */
export function creditNoteEInvoiceXml(found: Found, format: EInvoiceFormat): string {
  const rendered = renderEInvoice(eInvoiceDocumentOf(found), format);
  if (rendered.xml === null) {
    throw new ApiError('einvoice_incomplete', `The credit note cannot be a valid ${format.toUpperCase()} e-invoice: ${rendered.problems.length} field(s) to fix.`, rendered.problems);
  }
  return rendered.xml;
}

/** The CII its PDF embeds as Factur-X, or null for the plain PDF (as an invoice's, §15). */
export function creditNoteFacturXCii(found: Found): string | null {
  if (found.workspace.einvoicePdf === 'plain') return null;
  return renderEInvoice(eInvoiceDocumentOf(found), 'cii').xml;
}

/** Whether the credit note is ready in `format` (for the hosted page's XML links). */
export const creditNoteReady = (found: Found, format: EInvoiceFormat) => renderEInvoice(eInvoiceDocumentOf(found), format).xml !== null;
