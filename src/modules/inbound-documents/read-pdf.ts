// Reading a received PDF: its embedded e-invoice, else its text, done in the renderer worker. Not yet here:
// every PDF is answered as unreadable until the renderer's reader replaces this file.
import type { PdfReading } from './reading';

export async function readInboundPdf(_env: Env, _bytes: ArrayBuffer): Promise<PdfReading> {
  return { ok: false, reason: 'PDFs cannot be read yet.' };
}
