// What a received file is, read from its first bytes (§21: never from the Content-Type a client or a mail
// client claims). A PDF, an XML document, a JPEG, a PNG or a WebP image; anything else, an HTML page that
// calls itself a PDF included, is none of them. Only the start of the file is looked at, so sniffing costs the
// same for 10 MB as for 10 KB; whether the rest is what it starts as is the reader's to find out.

export type DocumentKind = 'pdf' | 'xml' | 'image';

export type SniffedType = { kind: DocumentKind; contentType: string; extension: string };

const PDF: SniffedType = { kind: 'pdf', contentType: 'application/pdf', extension: 'pdf' };
const XML: SniffedType = { kind: 'xml', contentType: 'application/xml', extension: 'xml' };
const JPEG: SniffedType = { kind: 'image', contentType: 'image/jpeg', extension: 'jpg' };
const PNG: SniffedType = { kind: 'image', contentType: 'image/png', extension: 'png' };
const WEBP: SniffedType = { kind: 'image', contentType: 'image/webp', extension: 'webp' };

/** The types a document may be, as a sentence for the 415. */
export const ACCEPTED_TYPES = 'a PDF, an XML e-invoice (CII or UBL), or a JPEG, PNG or WebP image';

/** How far into an XML file its first element is looked for (past the declaration, comments and a DOCTYPE). */
const XML_LOOKAHEAD = 4096;

// Elements that start an HTML page, not an e-invoice: a browser would render such a file, so it is refused
// whatever it says it is (the WHATWG sniffing algorithm's list, and the frame of a page).
const HTML_ELEMENTS = new Set(['html', 'head', 'body', 'script', 'iframe', 'h1', 'div', 'font', 'table', 'a', 'style', 'title', 'b', 'br', 'p', 'meta', 'link', 'svg']);

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

export function sniffDocumentType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, ascii('%PDF-'))) return PDF;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return WEBP;
  return looksLikeXml(bytes) ? XML : null;
}

/** The start of the file as text, in the encoding its byte order mark names (UTF-8 without one). */
function leadingText(bytes: Uint8Array): string {
  const head = bytes.subarray(0, XML_LOOKAHEAD);
  const encoding = startsWith(head, [0xfe, 0xff]) ? 'utf-16be' : startsWith(head, [0xff, 0xfe]) ? 'utf-16le' : 'utf-8';
  // A cut through a multi-byte character at the lookahead's end is no reason to refuse: not fatal.
  return new TextDecoder(encoding).decode(head).replace(/^\uFEFF/, '');
}

/**
 * Whether the file is an XML document: it opens with markup (after white space), and its first element is
 * not an HTML page's. A DOCTYPE is let through here (unless it is HTML's): the reader refuses it with its
 * reason, so the person sees why (§21). A prolog longer than the lookahead counts as XML when it began with
 * the XML declaration.
 */
function looksLikeXml(bytes: Uint8Array): boolean {
  const text = leadingText(bytes);
  const declared = /^\s*<\?xml[\s?]/.test(text);
  let pos = 0;
  for (;;) {
    while (pos < text.length && ' \t\r\n'.includes(text[pos]!)) pos++;
    if (pos >= text.length) return declared;
    if (text[pos] !== '<') return false;
    if (text.startsWith('<?', pos) || text.startsWith('<!--', pos)) {
      const close = text.startsWith('<?', pos) ? '?>' : '-->';
      const end = text.indexOf(close, pos);
      if (end < 0) return declared;
      pos = end + close.length;
      continue;
    }
    if (/^<!DOCTYPE\s/i.test(text.slice(pos, pos + 10))) {
      const name = /^<!DOCTYPE\s+([^\s>[]+)/i.exec(text.slice(pos, pos + 200))?.[1];
      return name !== undefined && name.toLowerCase() !== 'html';
    }
    const name = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)[\s/>]/.exec(text.slice(pos, pos + 300))?.[1];
    if (!name) return false;
    // Declared XML is an HTML page only as XHTML (or SVG); undeclared, any element a page starts with is one.
    if (declared) return !['html', 'svg'].includes(name.toLowerCase());
    return name.includes(':') || !HTML_ELEMENTS.has(name.toLowerCase());
  }
}
