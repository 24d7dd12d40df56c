// The PDFs the reading tests (read-pdf.test.ts) and the bench (bench/einvoice.mjs) feed the reader, made here rather
// than kept as files: a plain one in a standard font, ones carrying an XML attachment under a given name, and the
// hostile ones (a deflate bomb in a page, in an attachment and in an object stream; an encrypted file; 10 MB of
// objects and nesting). Plain pdf-lib and bytes: no Workers module, so Node can run it too.
import { AFRelationship, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/**
 * A zlib stream of a single dynamic-Huffman block that writes one zero byte and then copies the last 258 bytes
 * `repeats` times, each copy two bits (a one-bit length code and a one-bit distance code): 1 MB of it inflates
 * to about 1 GB, deflate's greatest ratio (about 1,032:1). Valid to its end (end of block, Adler-32).
 */
export function deflateBomb(repeats: number): Uint8Array {
  const out: number[] = [0x78, 0x9c];
  let byte = 0;
  let used = 0;
  const bits = (value: number, count: number) => {
    for (let i = 0; i < count; i++) {
      byte |= ((value >> i) & 1) << used;
      if (++used === 8) {
        out.push(byte);
        byte = 0;
        used = 0;
      }
    }
  };
  // Huffman codes are packed from their most significant bit.
  const code = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits((value >> i) & 1, 1);
  };
  bits(1, 1); // the last block
  bits(2, 2); // dynamic Huffman codes
  bits(286 - 257, 5); // literal/length codes: up to 285
  bits(1 - 1, 5); // one distance code
  bits(18 - 4, 4); // code-length codes given
  // Code-length code lengths, in the order RFC 1951 sends them: 2 bits each for the symbols 0, 1, 2 and 18, whose
  // canonical codes are then 00, 01, 10 and 11.
  for (const symbol of [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]) bits([0, 1, 2, 18].includes(symbol) ? 2 : 0, 3);
  const [LENGTH_1, LENGTH_2, ZEROS] = [0b01, 0b10, 0b11];
  code(LENGTH_2, 2); // literal 0: 2 bits
  code(ZEROS, 2);
  bits(138 - 11, 7); // literals 1–138 unused
  code(ZEROS, 2);
  bits(117 - 11, 7); // literals 139–255 unused
  code(LENGTH_2, 2); // end of block: 2 bits
  code(ZEROS, 2);
  bits(28 - 11, 7); // lengths 257–284 unused
  code(LENGTH_1, 2); // length 258 (code 285): 1 bit
  code(LENGTH_1, 2); // distance 1: 1 bit
  // The literal/length codes are now 285 → 0, literal 0 → 10, end of block → 11; the distance code is 0.
  code(0b10, 2);
  // Each copy is the codes 0 and 0: two zero bits, so the copies are zero bytes, written at once.
  let zeroBits = 2 * repeats;
  while (zeroBits > 0 && used !== 0) {
    bits(0, 1);
    zeroBits--;
  }
  const head = out.splice(0);
  const zeroBytes = Math.floor(zeroBits / 8);
  bits(0, zeroBits % 8);
  code(0b11, 2); // end of block
  if (used) out.push(byte);
  const inflated = 1 + 258 * repeats;
  const b = inflated % 65521; // Adler-32 of zeros: a = 1, b = the count
  out.push(b >> 8, b & 0xff, 0, 1);
  const stream = new Uint8Array(head.length + zeroBytes + out.length);
  stream.set(head);
  stream.set(out, head.length + zeroBytes);
  return stream;
}

/** A one-page invoice as an office suite would print it: Helvetica, WinAnsiEncoding, accents and a euro sign. */
export async function plainInvoicePdf(lines: string[]): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 11, font }));
  return pdf;
}

/**
 * `pdf` carrying `content` as an embedded file named `name`: in the EmbeddedFiles name tree, in /AF, or both;
 * compressed here, or already `deflated`, or `stored` as it is.
 */
export function attach(pdf: PDFDocument, name: string, content: Uint8Array, options: { where?: 'both' | 'names' | 'af'; deflated?: boolean; stored?: boolean } = {}) {
  const { where = 'both', deflated = false, stored = false } = options;
  const context = pdf.context;
  const file = context.register(
    deflated
      ? context.stream(content, { Type: 'EmbeddedFile', Subtype: 'text/xml', Filter: 'FlateDecode' })
      : stored
        ? context.stream(content, { Type: 'EmbeddedFile', Subtype: 'text/xml' })
        : context.flateStream(content, { Type: 'EmbeddedFile', Subtype: 'text/xml' }),
  );
  const spec = context.register(
    context.obj({ Type: 'Filespec', F: PDFString.of(name), UF: PDFHexString.fromText(name), EF: { F: file, UF: file }, AFRelationship: AFRelationship.Alternative }),
  );
  if (where !== 'af') pdf.catalog.set(PDFName.of('Names'), context.obj({ EmbeddedFiles: { Names: [PDFHexString.fromText(name), spec] } }));
  if (where !== 'names') pdf.catalog.set(PDFName.of('AF'), context.obj([spec]));
  return pdf;
}

/** What an encrypting tool writes in the trailer (RC4 128-bit, revision 3); the reader must refuse before anything else. */
export function markEncrypted(pdf: PDFDocument): PDFDocument {
  pdf.context.trailerInfo.Encrypt = pdf.context.register(
    pdf.context.obj({ Filter: 'Standard', V: 2, R: 3, Length: 128, P: -3904, O: PDFHexString.of('ab'.repeat(32)), U: PDFHexString.of('cd'.repeat(32)) }),
  );
  return pdf;
}

/** A page whose content stream is a deflate bomb of `repeats` copies. */
export async function bombInPage(repeats: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage();
  page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.stream(deflateBomb(repeats), { Filter: 'FlateDecode' })));
  return pdf.save();
}

/** A Factur-X-looking PDF whose factur-x.xml is a deflate bomb. */
export async function bombAsAttachment(repeats: number): Promise<Uint8Array> {
  const pdf = await plainInvoicePdf(['Invoice 1']);
  return attach(pdf, 'factur-x.xml', deflateBomb(repeats), { deflated: true }).save();
}

const ascii = (text: string) => new TextEncoder().encode(text);

function concat(parts: (string | Uint8Array)[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === 'string' ? ascii(part) : part));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A PDF 1.5 file whose catalog and page sit in an object stream that is a deflate bomb. */
export function bombInObjectStream(repeats: number): Uint8Array {
  const bomb = deflateBomb(repeats);
  return concat([
    '%PDF-1.5\n',
    `1 0 obj\n<< /Type /ObjStm /N 2 /First 10 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`,
    bomb,
    '\nendstream\nendobj\n',
    '9 0 obj\n<< /Type /XRef /Root 2 0 R /Size 10 /W [1 2 1] /Length 0 >>\nstream\n\nendstream\nendobj\n',
    'startxref\n0\n%%EOF\n',
  ]);
}

/** Object streams that each inflate to just under the ceiling of one stream: together, past the reading's. */
export function bombsInObjectStreams(count: number, repeatsEach: number): Uint8Array {
  const bomb = deflateBomb(repeatsEach);
  const streams = Array.from({ length: count }, (_, i) => [
    `${10 + i} 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`,
    bomb,
    '\nendstream\nendobj\n',
  ]).flat();
  return concat([HEAD, ...streams, TAIL]);
}

const HEAD = '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n';
const TAIL = 'trailer\n<< /Root 1 0 R >>\nstartxref\n0\n%%EOF\n';

/**
 * `bytes` of a PDF with tens of thousands of objects (58,000 in 10 MB), each a dictionary whose array nests 60 levels
 * deep (just under the reader's ceiling) with a reference to the next, and at the end one object that nests 100,000
 * levels: the reader must walk all of it to reach the last, and refuse that.
 */
export function deeplyNestedObjects(bytes = 10 * 1024 * 1024): Uint8Array {
  const depth = 60;
  const nested = `${'['.repeat(depth)}1 2.5 (x) /N${']'.repeat(depth)}`;
  const parts = [HEAD];
  let size = HEAD.length;
  for (let n = 4; size < bytes - 250_000; n++) {
    const object = `${n} 0 obj\n<< /Next ${n + 1} 0 R /A ${nested} >>\nendobj\n`;
    parts.push(object);
    size += object.length;
  }
  const deep = 100_000;
  parts.push(`999999 0 obj\n${'['.repeat(deep)}${']'.repeat(deep)}\nendobj\n`, TAIL);
  return ascii(parts.join(''));
}

/** `bytes` of a PDF made of one tiny object after another: 400,000 in 10 MB. */
export function manyObjects(bytes = 10 * 1024 * 1024): Uint8Array {
  const parts = [HEAD];
  let size = HEAD.length;
  for (let n = 4; size < bytes - 100; n++) {
    const object = `${n} 0 obj ${n} endobj\n`;
    parts.push(object);
    size += object.length;
  }
  parts.push(TAIL);
  return ascii(parts.join(''));
}

/** One page whose content stream (stored, not compressed) is `bytes` of drawing with no text at all. */
export function drawingWithoutText(bytes = 10 * 1024 * 1024): Uint8Array {
  const line = '10.5 20.25 m 30 40.125 l 1 0 0 RG S\n';
  const content = line.repeat(Math.floor((bytes - 400) / line.length));
  return ascii(
    `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\nendobj\n4 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n${TAIL}`,
  );
}

/**
 * `pages` pages sharing one content stream (`bytes` of stored drawing, no text): each page's content is read again, so
 * the work grows with the pages, not with the file; the reader's ceiling on bytes lexed ends it.
 */
export function sharedContentOnManyPages(bytes = 9 * 1024 * 1024, pages = 1_000): Uint8Array {
  const line = '10.5 20.25 m 30 40.125 l 1 0 0 RG S\n';
  const content = line.repeat(Math.floor(bytes / line.length));
  const numbers = Array.from({ length: pages }, (_, i) => 5 + i);
  return ascii(
    `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [${numbers.map((n) => `${n} 0 R`).join(' ')}] /Count ${pages} >>\nendobj\n` +
      numbers.map((n) => `${n} 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\nendobj\n`).join('') +
      `4 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n${TAIL}`,
  );
}

/** One page drawing a form XObject (a letterhead, which also draws itself) `draws` times. */
export function formDrawnOverAndOver(draws = 1_000): Uint8Array {
  const form = 'BT /F1 12 Tf 50 800 Td (Letterhead GmbH) Tj ET /X0 Do';
  const content = '/X0 Do\n'.repeat(draws);
  const resources = '<< /Font << /F1 6 0 R >> /XObject << /X0 5 0 R >> >>';
  return ascii(
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
      `3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources ${resources} >>\nendobj\n` +
      `4 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n` +
      `5 0 obj\n<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources ${resources} /Length ${form.length} >>\nstream\n${form}\nendstream\nendobj\n` +
      `6 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>\nendobj\n${TAIL}`,
  );
}

/** `bytes` of objects each opening a string that never ends: each is read to the end of the file, again and again. */
export function unterminatedStrings(bytes = 1024 * 1024): Uint8Array {
  const parts = [HEAD];
  let size = HEAD.length;
  for (let n = 4; size < bytes - 100; n++) {
    const object = `${n} 0 obj\n<< /Title (an open string\n`;
    parts.push(object);
    size += object.length;
  }
  parts.push(TAIL);
  return ascii(parts.join(''));
}

/** A page whose text runs around an inline image (binary bytes, an `EI` among them) and stray delimiters. */
export function inlineImageAndNoise(): Uint8Array {
  const image = new Uint8Array([0x29, 0x28, 0x5d, 0x45, 0x49, 0x00, 0xff, 0x3e, 0x3e, 0x42, 0x54, 0x0a, 0x45, 0x49, 0x58, 0x20, 0x7f, 0x80]);
  const content = concat([
    'BT /F1 12 Tf 50 800 Td (Before the image) Tj ET\nq 16 0 0 16 50 700 cm BI /W 6 /H 3 /BPC 8 /CS /G ID ',
    image,
    ' EI Q\n) ] >> BT /F1 12 Tf 50 780 Td [(After) -250 (it)] TJ ET\n',
  ]);
  return concat([
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n',
    `4 0 obj\n<< /Length ${content.length} >>\nstream\n`,
    content,
    '\nendstream\nendobj\n5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>\nendobj\n',
    TAIL,
  ]);
}

/**
 * Objects too large to be kept once read (each of 99,000 numbers), the font among them, and a page that selects that
 * font ten thousand times: each selection reads the font's object again.
 */
export function fontReadAgainAndAgain(): Uint8Array {
  const pad = `[${'12345 '.repeat(99_000)}]`;
  const content = '/F1 12 Tf\n'.repeat(10_000);
  return ascii(
    `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 /Pad ${pad} >>\nendobj\n` +
      `3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font 6 0 R >> /Pad ${pad} >>\nendobj\n` +
      `4 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n6 0 obj\n<< /F1 7 0 R >>\nendobj\n` +
      `7 0 obj\n<< /Type /Font /Subtype /TrueType /BaseFont /Arial /Widths ${pad} >>\nendobj\n${TAIL}`,
  );
}
