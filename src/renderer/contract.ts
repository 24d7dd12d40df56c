// What the API sends the renderer worker: the document's printed form (documents/render/printed.ts, made
// from its one document value), as plain data. A document's labels include sentences built by functions
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
