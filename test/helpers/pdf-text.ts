// The text of a PDF the worker made, as a PDF-to-text tool would read it, inside the test pool: each
// page's content streams inflated, each string drawn (glyph ids in the embedded Noto Sans, which is
// never subset) mapped back to its characters through the font's own cmap. One string per drawText.
import fontkit from '@pdf-lib/fontkit';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { NOTO_SANS_SUBSET_BASE64 } from '../../src/renderer/fonts/noto-sans-subset';

let glyphs: Map<number, string> | undefined;

function characterOf(): Map<number, string> {
  if (glyphs) return glyphs;
  const font = fontkit.create(Uint8Array.from(atob(NOTO_SANS_SUBSET_BASE64), (c) => c.charCodeAt(0)));
  glyphs = new Map();
  for (const codePoint of font.characterSet) {
    const id = font.glyphForCodePoint(codePoint).id;
    if (!glyphs.has(id)) glyphs.set(id, String.fromCodePoint(codePoint));
  }
  return glyphs;
}

/** Every page's drawn strings, in drawing order. */
export async function pdfText(bytes: ArrayBuffer | Uint8Array): Promise<string[][]> {
  const pdf = await PDFDocument.load(bytes);
  const chars = characterOf();
  return pdf.getPages().map((page) => {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
    const source = refs
      .map((ref) => pdf.context.lookup(ref))
      .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
      .map((stream) => new TextDecoder('latin1').decode(decodePDFRawStream(stream).decode()))
      .join('\n');
    return [...source.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map(([, hex]) =>
      Array.from(hex!.match(/.{4}/g) ?? [], (id) => chars.get(Number.parseInt(id, 16)) ?? '\uFFFD').join(''),
    );
  });
}
