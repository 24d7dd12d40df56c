// The renderer worker: the invoice PDF (and its Factur-X form) made apart from the API, which calls
// `renderPdf` through its RENDERER service binding (src/modules/invoices/render/respond.tsx), and a received
// PDF read (`readPdf`, src/modules/inbound-documents/read-pdf.ts), a received email's MIME parsed (`parseEmail`,
// inbound-documents/email.ts), and a received e-invoice's XML read and judged by our EN 16931 rules (`readXml`,
// `receivedDocument`, inbound-documents/read-xml-by-renderer.ts). pdf-lib, fontkit, the font, the PDF reader, the
// MIME parser and the rule engine are most of what these need and nothing any other route does: here they do not
// weigh on the API's cold start, which grows with the size of its bundle. Its configuration is wrangler.toml in
// this folder.
import { WorkerEntrypoint } from 'cloudflare:workers';
import { type NotShown, type ReceivedDocument, receivedDocument } from '../modules/documents/from-received';
import type { PdfReading, XmlReading } from '../modules/inbound-documents/reading';
import { readInboundXml } from '../modules/inbound-documents/read-xml';
import type { ParsedEmail, PdfDocument } from './contract';
import { makeFacturX } from './facturx';
import { parseEmail } from './parse-email';
import { renderInvoicePdf } from './pdf';
import { readPdf } from './reading/read-pdf';

/** No bindings of its own. */
type RendererEnv = Record<string, never>;

export default class Renderer extends WorkerEntrypoint<RendererEnv> {
  /** With `cii` (the invoice's EN 16931 CII), the Factur-X PDF/A-3b that embeds it (§15); else the plain PDF. */
  renderPdf(doc: PdfDocument, cii: string | null): Promise<Uint8Array> {
    return renderInvoicePdf(doc, cii === null ? undefined : (pdf) => makeFacturX(pdf, cii));
  }

  /** A received PDF's embedded e-invoice (factur-x.xml, zugferd-invoice.xml, xrechnung.xml) and text, bounded (reading/). */
  readPdf(bytes: ArrayBuffer): PdfReading {
    return readPdf(new Uint8Array(bytes));
  }

  /** A received e-invoice's XML read into `extracted` with our rules' verdict (inbound-documents/read-xml.ts). */
  readXml(xml: string, embeddedInPdf: boolean): XmlReading {
    return readInboundXml(xml, { embeddedInPdf });
  }

  /** A received e-invoice as the document its page shows (documents/from-received.ts), or why it cannot be. */
  receivedDocument(xml: string): ReceivedDocument | NotShown {
    return receivedDocument(xml);
  }

  /** A received email's HTML body and attachments (parse-email.ts); the API has checked its size. */
  parseEmail(raw: ArrayBuffer): Promise<ParsedEmail> {
    return parseEmail(raw);
  }
}
