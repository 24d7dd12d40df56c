// The e-invoice a hybrid PDF carries (§21): Factur-X and ZUGFeRD 2 name it factur-x.xml or zugferd-invoice.xml
// (ZUGFeRD 1: ZUGFeRD-invoice.xml), XRechnung in a PDF xrechnung.xml. Looked for where those standards put it: the
// catalog's EmbeddedFiles name tree and its /AF (associated files) array, and read from the file specification's
// embedded stream. Trees are walked with a visited set and a node ceiling, so a tree that loops ends.
import { LIMITS, PdfLimit } from './limits';
import type { PdfFile } from './file';
import { PdfDict, PdfRef, PdfString, type PdfValue } from './objects';
import { textString, utf16 } from './text-strings';

/** In order of preference, when a file carries more than one. */
const E_INVOICE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'] as const;

export type EmbeddedXml = { name: string; content: string };

type Candidate = { rank: number; name: string; spec: PdfDict };

/** The embedded e-invoice's XML, or null when the PDF carries none by those names. */
export function embeddedEInvoice(file: PdfFile): EmbeddedXml | null {
  const catalog = file.catalog();
  const candidates: Candidate[] = [];
  const consider = (spec: PdfDict | null, key: string | null) => {
    if (!spec) return;
    const written = textStringOf(file, spec.get('UF')) ?? textStringOf(file, spec.get('F')) ?? key;
    if (written === null) return;
    // The name as a file system would show it: the last part of a path, letters in either case.
    const name = written.split(/[\\/]/).pop()!.trim();
    const rank = (E_INVOICE_NAMES as readonly string[]).indexOf(name.toLowerCase());
    if (rank >= 0) candidates.push({ rank, name, spec });
  };
  const files = file.dict(file.dict(catalog.get('Names'))?.get('EmbeddedFiles'));
  if (files) walkNameTree(file, files, (key, value) => consider(file.dict(value), key));
  for (const spec of file.array(catalog.get('AF'))) consider(file.dict(spec), null);
  candidates.sort((a, b) => a.rank - b.rank);
  for (const { name, spec } of candidates) {
    const embedded = file.dict(spec.get('EF'));
    const stream = file.stream(embedded?.get('UF')) ?? file.stream(embedded?.get('F'));
    if (!stream) continue;
    // Stored without compression, it has not met the inflater's ceiling: the same one holds.
    const bytes = file.decode(stream);
    if (bytes.length > LIMITS.maxStreamBytes) throw new PdfLimit(`The PDF's ${name} is larger than ${LIMITS.maxStreamBytes / 1024 / 1024} MB.`);
    return { name, content: xmlText(bytes) };
  }
  return null;
}

function textStringOf(file: PdfFile, value: PdfValue | undefined): string | null {
  const resolved = file.resolve(value);
  return resolved instanceof PdfString ? textString(resolved.bytes) : null;
}

/** Each key and value of a name tree (ISO 32000-1 §7.9.6), leaves in order. */
function walkNameTree(file: PdfFile, root: PdfDict, visit: (key: string, value: PdfValue) => void): void {
  const seen = new Set<number>();
  const stack: { node: PdfDict; depth: number }[] = [{ node: root, depth: 0 }];
  let nodes = 0;
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (++nodes > LIMITS.maxTreeNodes) throw new PdfLimit('The PDF has a name tree too large to read.');
    const names = file.array(node.get('Names'));
    for (let i = 0; i + 1 < names.length; i += 2) {
      const key = file.resolve(names[i]);
      if (key instanceof PdfString) visit(textString(key.bytes), names[i + 1]!);
    }
    if (depth >= LIMITS.maxDepth) continue;
    const kids = file.array(node.get('Kids'));
    // Pushed in reverse, so the leftmost kid is visited first.
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i];
      if (kid instanceof PdfRef) {
        if (seen.has(kid.num)) continue;
        seen.add(kid.num);
      }
      const child = file.dict(kid);
      if (child) stack.push({ node: child, depth: depth + 1 });
    }
  }
}

/** An XML file's bytes as text: UTF-8 unless a byte order mark says UTF-16; the mark itself dropped. */
function xmlText(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes.subarray(2), false);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes.subarray(2), true);
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return new TextDecoder('utf-8').decode(bytes.subarray(start));
}
