// A received PDF read in the renderer worker (§21 "Processing"): its embedded e-invoice, by attachment name, else its
// text for the model. A hybrid PDF's text is not extracted: the XML is the invoice, nothing reads the text then, and
// on a 100-line Factur-X it would triple the cost of reading it (bench/einvoice.mjs).
//
// The reader is our own small one rather than pdf-lib's parser, because pdf-lib's `PDFDocument.load` reads every
// object of the file up front and inflates every object stream with no ceiling: a 250 KB file whose object stream is
// a deflate bomb took it 3.4 s of CPU and 390 MB of memory (Node, pdf-lib 1.17.1), three times a Worker's 128 MB.
// This one finds objects in one pass, reads only those asked for, and counts every byte it lexes and inflates
// against the ceilings of limits.ts; a file past one of them, or not a PDF, or encrypted, answers `{ok: false,
// reason}` with the reason a person reads as the document's `failure_reason`.
import type { PdfReading } from '../../modules/inbound-documents/reading';
import { embeddedEInvoice } from './attachments';
import { PdfUnsupported } from './decode';
import { PdfFile } from './file';
import { LIMITS, PdfLimit, PdfRefused } from './limits';
import { pdfText } from './text';

export function readPdf(bytes: Uint8Array): PdfReading {
  if (bytes.length > LIMITS.maxInputBytes) return { ok: false, reason: `The PDF is larger than ${LIMITS.maxInputBytes / 1024 / 1024} MB.` };
  try {
    const file = new PdfFile(bytes);
    file.catalog();
    const xml = embeddedEInvoice(file);
    return { ok: true, xml, text: xml ? '' : pdfText(file) };
  } catch (error) {
    if (error instanceof PdfLimit || error instanceof PdfRefused) return { ok: false, reason: error.message };
    if (error instanceof PdfUnsupported) return { ok: false, reason: `The PDF's e-invoice is stored with ${error.message}, which is not read here.` };
    // Anything else is a fault of this reader on a file it should have read: said plainly, and logged for us.
    console.error(JSON.stringify({ level: 'error', message: `PDF reading failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` }));
    return { ok: false, reason: 'The PDF could not be read: its structure is damaged or uses a feature not read here.' };
  }
}
