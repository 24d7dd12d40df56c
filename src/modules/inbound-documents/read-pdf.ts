// §21 "Processing": a received PDF's embedded e-invoice (factur-x.xml, zugferd-invoice.xml, xrechnung.xml), else its
// text for the model, read by the renderer worker (src/renderer/reading/) through the RENDERER service binding, the
// way the API has its invoice PDFs made (invoices/render/respond.tsx). Why there:
// - the PDF code (the reader, and pdf-lib beside it) stays out of the API's bundle and cold start: this file imports
//   types and one constant;
// - the renderer's reader is bounded by counting its work (limits.ts: bytes lexed and inflated, depth, objects,
//   pages; 10 MB at most out of any one stream), since a Worker cannot time its own CPU; a compression bomb, an
//   encrypted file or a hostile one answers `{ok: false, reason}` in well under a second, and its work runs in the
//   renderer's isolate, not in the one answering the API's requests;
// - a renderer that does not answer at all is cut off here after RENDERER_TIMEOUT_MS, so a queue message never waits
//   on it for ever.
import { PDF_READING_MAX_BYTES, RENDERER_TIMEOUT_MS } from '../../renderer/contract';
import { inTime } from '../../lib/in-time';
import type { PdfReading } from './reading';


/**
 * The PDF read. A file that cannot be read (not a PDF, encrypted, past a ceiling) answers `ok: false` with the reason
 * for the document's `failure_reason`; a renderer that cannot be reached throws, so the queue tries the message again.
 */
export async function readInboundPdf(env: Env, bytes: ArrayBuffer): Promise<PdfReading> {
  if (bytes.byteLength > PDF_READING_MAX_BYTES) return { ok: false, reason: `The PDF is larger than ${PDF_READING_MAX_BYTES / 1024 / 1024} MB.` };
  return inTime<PdfReading>(env.RENDERER.readPdf(bytes), RENDERER_TIMEOUT_MS, () => ({
    ok: false,
    reason: `Reading the PDF took longer than ${RENDERER_TIMEOUT_MS / 1000} s.`,
  }));
}
