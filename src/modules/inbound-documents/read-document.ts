// Reading one received document by what it is (its sniffed type): XML as an e-invoice, a PDF for its embedded
// e-invoice (Factur-X, ZUGFeRD, XRechnung) or else its text for the model, an image by the model. The XML and the
// PDF are read by the renderer worker (read-xml-by-renderer.ts, read-pdf.ts); the readers' clients and the model
// providers are loaded on first use, and cost nothing to a queue batch that needs none of them. What a reader
// cannot read ends the document `failed`, with its reason.
import type { ModelReading, PdfReading, XmlReading } from './reading';
import type { ExtractedValue, ValidationValue } from './schemas';
import type { InboundDocumentRow } from './serialize';

/** The three readers (read-xml-by-renderer.ts, read-pdf.ts, model-extraction.ts), as the consumer calls them. */
export type Readers = {
  readInboundXml: (env: Env, xml: string, options?: { embeddedInPdf?: boolean }) => Promise<XmlReading>;
  readInboundPdf: (env: Env, bytes: ArrayBuffer) => Promise<PdfReading>;
  extractWithModel: (env: Env, input: { workspaceId: string; contentType: string; bytes?: ArrayBuffer; text?: string }) => Promise<ModelReading>;
};

/** The readers, each module imported on its first use. */
export const lazyReaders: Readers = {
  readInboundXml: async (env, xml, options) => (await import('./read-xml-by-renderer')).readInboundXml(env, xml, options),
  readInboundPdf: async (env, bytes) => (await import('./read-pdf')).readInboundPdf(env, bytes),
  extractWithModel: async (env, input) => (await import('./model-extraction')).extractWithModel(env, input),
};

/** What reading a document settled: to be reviewed with what was read, or failed and why. */
export type DocumentReading =
  | {
    status: 'needs_review';
    format: NonNullable<InboundDocumentRow['format']>;
    profile: string | null;
    extracted: ExtractedValue | null;
    validation: ValidationValue | null;
    extraction: 'xml' | 'model' | null;
    confidence: number | null;
  }
  | { status: 'failed'; format: InboundDocumentRow['format']; reason: string };

const failed = (format: InboundDocumentRow['format'], reason: string): DocumentReading => ({ status: 'failed', format, reason });

// Encodings an e-invoice may be in (EN 16931's syntax bindings say UTF-8; a byte order mark may say UTF-16).
const DECLARED_ENCODING = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']/i;

/** The XML's text, or why it is not text an e-invoice can be. */
export function xmlText(bytes: Uint8Array): { text: string } | { reason: string } {
  const utf16 = bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : null;
  let text: string;
  try {
    text = new TextDecoder(utf16 ?? 'utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { reason: `The XML is not valid ${utf16 ? 'UTF-16' : 'UTF-8'}.` };
  }
  const declared = DECLARED_ENCODING.exec(text.replace(/^\uFEFF/, ''))?.[1]?.toLowerCase();
  if (declared && !['utf-8', 'utf8', 'utf-16', 'utf-16le', 'utf-16be'].includes(declared)) {
    return { reason: `The XML declares the encoding ${declared}; e-invoices are UTF-8.` };
  }
  return { text };
}

const fromXml = (reading: XmlReading, format: 'cii' | 'ubl' | 'facturx'): DocumentReading =>
  reading.ok
    ? { status: 'needs_review', format, profile: reading.profile, extracted: reading.extracted, validation: reading.validation, extraction: 'xml', confidence: null }
    : failed(format === 'facturx' ? 'facturx' : null, reading.reason);

async function readXml(readers: Readers, env: Env, xml: string, format?: 'facturx'): Promise<DocumentReading> {
  // The plain EN 16931 id taken out of a PDF reads as Factur-X's EN 16931 profile.
  const reading = await readers.readInboundXml(env, xml, { embeddedInPdf: format === 'facturx' });
  return fromXml(reading, format ?? (reading.ok ? reading.format : 'cii'));
}

/**
 * A reading to try again later rather than settle now: the model's provider was slow, down or busy, or the workspace
 * used its model extractions for this minute (§7). The consumer retries the message after `delaySeconds`; when no
 * retry is left, the document goes to review empty (`ifNoMoreTries`), never `failed`: the file is not at fault.
 */
export class ReadLater extends Error {
  constructor(readonly delaySeconds: number, readonly reason: string, readonly ifNoMoreTries: () => Promise<DocumentReading>) {
    super(reason);
    this.name = 'ReadLater';
  }
}

/** A model's reading as the document stores it; its warnings are kept even when nothing was read, so a person sees why. */
function fromModel(format: 'pdf' | 'image', reading: Extract<ModelReading, { ok: true }>): DocumentReading {
  const validation: ValidationValue | null = reading.extracted || reading.warnings.length
    ? { valid: true, checked_at: new Date().toISOString(), errors: [], warnings: reading.warnings }
    : null;
  // Nothing extracted (the `local` provider, an unusable answer): left for a person to fill in.
  if (!reading.extracted) return { status: 'needs_review', format, profile: null, extracted: null, validation, extraction: null, confidence: null };
  return { status: 'needs_review', format, profile: null, extracted: reading.extracted, validation, extraction: 'model', confidence: reading.confidence };
}

async function readByModel(
  readers: Readers, env: Env, row: InboundDocumentRow, format: 'pdf' | 'image', input: { bytes?: ArrayBuffer; text?: string },
): Promise<DocumentReading> {
  const reading = await readers.extractWithModel(env, { workspaceId: row.workspaceId, contentType: row.contentType, ...input });
  if (!reading.ok && 'retryAfter' in reading) {
    throw new ReadLater(reading.retryAfter, reading.reason, async () => fromModel(format, (await import('./model-extraction')).unreadByModel(reading.reason) as Extract<ModelReading, { ok: true }>));
  }
  if (!reading.ok) return failed(format, reading.reason);
  return fromModel(format, reading);
}

export async function readDocument(env: Env, row: InboundDocumentRow, bytes: ArrayBuffer, readers: Readers = lazyReaders): Promise<DocumentReading> {
  if (row.contentType === 'application/xml') {
    const decoded = xmlText(new Uint8Array(bytes));
    return 'reason' in decoded ? failed(null, decoded.reason) : readXml(readers, env, decoded.text);
  }
  if (row.contentType === 'application/pdf') {
    const pdf = await readers.readInboundPdf(env, bytes);
    if (!pdf.ok) return failed('pdf', pdf.reason);
    if (pdf.xml) {
      const reading = await readXml(readers, env, pdf.xml.content, 'facturx');
      return reading.status === 'failed' ? failed('facturx', `The embedded ${pdf.xml.name}: ${reading.reason}`) : reading;
    }
    return readByModel(readers, env, row, 'pdf', { text: pdf.text });
  }
  return readByModel(readers, env, row, 'image', { bytes });
}
