// What the API sends the renderer worker: the document's printed form (documents/render/printed.ts, made
// from its one document value), as plain data; the largest received PDF it hands over to be read; and what the
// renderer answers for a received email. A document's labels include sentences built by functions
// (the emails'), and functions do not cross a service binding as functions, so only the labels' words go;
// the one sentence the PDF builds, the page footer, the renderer takes from the locale. Imported by both
// sides, so it imports only types.
import type { PrintedDocument } from '../modules/documents/render/printed';

type Words<T> = { [K in keyof T as T[K] extends string ? K : never]: T[K] };

export type PdfDocument = Omit<PrintedDocument, 'labels'> & { labels: Words<PrintedDocument['labels']> };

export function pdfDocument(doc: PrintedDocument): PdfDocument {
  const words = Object.fromEntries(Object.entries(doc.labels).filter(([, label]) => typeof label === 'string'));
  return { ...doc, labels: words as PdfDocument['labels'] };
}

/** A received PDF larger than this is not sent to be read: the most an email brings (§21: 25 MB a message). */
export const PDF_READING_MAX_BYTES = 25 * 1024 * 1024;

/**
 * How long the API waits for the renderer's answer (a PDF made, a PDF, XML or email read): far above what the
 * largest takes (a long invoice's PDF took 15 s at the slowest, ten at a time on a loaded machine; 25 MB of MIME
 * or a hostile file a second or so), so only a renderer that is stuck gets here. A Worker's default CPU limit is
 * 30 s too.
 */
export const RENDERER_TIMEOUT_MS = 30_000;

/** One part of a received email (§21 "Email") as the renderer's MIME parser found it: plain data, its bytes decoded. */
export type EmailAttachment = { filename: string | null; mimeType: string; contentId: string | null; content: ArrayBuffer };

/** A received email as the API needs it: the HTML body (which inline parts it shows) and every attachment. */
export type ParsedEmail = { html: string | null; attachments: EmailAttachment[] };
