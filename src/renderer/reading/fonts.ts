// How a font's string bytes become characters (ISO 32000-1 §9.10): its ToUnicode CMap where it has one (every
// composite font pdf-lib or an office suite writes has), else for a simple font its encoding (a base encoding and
// /Differences by glyph name). A composite font without ToUnicode gives nothing: its codes are glyph ids.
import { PdfUnsupported } from './decode';
import { baseEncoding, glyph, STANDARD, WIN_ANSI } from './encodings';
import type { PdfFile } from './file';
import { type Budget, LIMITS } from './limits';
import { Lexer, PdfDict, PdfKeyword, PdfName, PdfString, PdfSyntax, type PdfValue } from './objects';
import { utf16 } from './text-strings';

export type FontDecoder = (bytes: Uint8Array) => string;

type Range = { low: number; high: number; to: string | string[] };
type CMap = { codespaces: { length: number; low: number; high: number }[]; chars: Map<number, string>; ranges: Range[] };

const MAX_RANGES = 10_000;

export function fontDecoder(file: PdfFile, font: PdfDict): FontDecoder {
  const composite = file.name(font.get('Subtype')) === 'Type0';
  const toUnicode = readToUnicode(file, font.get('ToUnicode'));
  if (composite) return toUnicode ? (bytes) => decodeCodes(bytes, toUnicode, 2, () => '') : () => '';
  const table = simpleEncoding(file, font);
  if (!toUnicode) return (bytes) => {
    let text = '';
    for (const code of bytes) text += table[code]!;
    return text;
  };
  return (bytes) => decodeCodes(bytes, toUnicode, 1, (code) => table[code] ?? '');
}

function simpleEncoding(file: PdfFile, font: PdfDict): readonly string[] {
  const encoding = file.resolve(font.get('Encoding'));
  if (encoding instanceof PdfName) return baseEncoding(encoding.name) ?? WIN_ANSI;
  if (!(encoding instanceof PdfDict)) return file.name(font.get('BaseFont'))?.includes('Symbol') ? [] : WIN_ANSI;
  // A Type 1 font's built-in encoding is StandardEncoding for the Latin fonts an invoice uses.
  const base = baseEncoding(file.name(encoding.get('BaseEncoding'))) ?? (file.name(font.get('Subtype')) === 'Type1' ? STANDARD : WIN_ANSI);
  const table = [...base];
  let code = 0;
  for (const entry of file.array(encoding.get('Differences'))) {
    if (typeof entry === 'number') code = entry;
    else if (entry instanceof PdfName && code >= 0 && code < 256) table[code++] = glyph(entry.name);
  }
  return table;
}

/** Each code (its length from the CMap's codespaces) mapped to text; unmapped ones through `fallback`. */
function decodeCodes(bytes: Uint8Array, cmap: CMap, defaultLength: number, fallback: (code: number) => string): string {
  let text = '';
  for (let i = 0; i < bytes.length;) {
    let length = defaultLength;
    for (const space of cmap.codespaces) {
      if (i + space.length > bytes.length) continue;
      const code = codeAt(bytes, i, space.length);
      if (code >= space.low && code <= space.high) {
        length = space.length;
        break;
      }
    }
    const code = codeAt(bytes, i, Math.min(length, bytes.length - i));
    i += length;
    const mapped = cmap.chars.get(code);
    if (mapped !== undefined) {
      text += mapped;
      continue;
    }
    const range = rangeOf(cmap.ranges, code);
    text += range ? rangeText(range, code) : fallback(code);
  }
  return text;
}

const codeAt = (bytes: Uint8Array, at: number, length: number) => {
  let code = 0;
  for (let k = 0; k < length; k++) code = code * 256 + bytes[at + k]!;
  return code;
};

/** The range holding `code`, by binary search over the ranges sorted by their low end. */
function rangeOf(ranges: Range[], code: number): Range | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle]!.low <= code) low = middle + 1;
    else high = middle - 1;
  }
  const range = ranges[high];
  return range && code <= range.high ? range : undefined;
}

function rangeText(range: Range, code: number): string {
  if (Array.isArray(range.to)) return range.to[code - range.low] ?? '';
  // The destination's last character counts up with the code (§9.10.3).
  const last = range.to.charCodeAt(range.to.length - 1) + (code - range.low);
  return range.to.slice(0, -1) + String.fromCharCode(last & 0xffff);
}

/** A ToUnicode CMap's codespaces and its bfchar and bfrange mappings; null when there is none or it does not read. */
function readToUnicode(file: PdfFile, value: PdfValue | undefined): CMap | null {
  const stream = file.stream(value);
  if (!stream) return null;
  try {
    return parseCMap(file.decode(stream), file.budget);
  } catch (error) {
    if (error instanceof PdfUnsupported || error instanceof PdfSyntax) return null;
    throw error;
  }
}

function parseCMap(data: Uint8Array, budget: Budget): CMap {
  const cmap: CMap = { codespaces: [], chars: new Map(), ranges: [] };
  const lexer = new Lexer(data, budget, 0, false);
  // The operands of the section being read, until its `end…` word.
  const section = (end: string): PdfValue[] => {
    const items: PdfValue[] = [];
    while (!lexer.atEnd) {
      const item = lexer.read();
      if (item instanceof PdfKeyword) {
        if (item.word === end) break;
        continue;
      }
      items.push(item);
    }
    return items;
  };
  const destination = (value: PdfValue | undefined) =>
    value instanceof PdfString ? utf16(value.bytes, false) : value instanceof PdfName ? glyph(value.name) : '';
  let entries = 0;
  const room = () => entries < LIMITS.maxCMapEntries && cmap.ranges.length < MAX_RANGES;
  while (!lexer.atEnd) {
    const word = lexer.read();
    if (!(word instanceof PdfKeyword)) continue;
    if (word.word === 'begincodespacerange') {
      const items = section('endcodespacerange');
      for (let i = 0; i + 1 < items.length; i += 2) {
        const [low, high] = [items[i], items[i + 1]];
        if (low instanceof PdfString && high instanceof PdfString && low.bytes.length >= 1 && low.bytes.length <= 4) {
          cmap.codespaces.push({ length: low.bytes.length, low: codeAt(low.bytes, 0, low.bytes.length), high: codeAt(high.bytes, 0, Math.min(4, high.bytes.length)) });
        }
      }
      cmap.codespaces.sort((a, b) => a.length - b.length);
    } else if (word.word === 'beginbfchar') {
      const items = section('endbfchar');
      for (let i = 0; i + 1 < items.length && room(); i += 2) {
        const from = items[i];
        if (!(from instanceof PdfString) || from.bytes.length > 4) continue;
        cmap.chars.set(codeAt(from.bytes, 0, from.bytes.length), destination(items[i + 1]));
        entries++;
      }
    } else if (word.word === 'beginbfrange') {
      const items = section('endbfrange');
      for (let i = 0; i + 2 < items.length && room(); i += 3) {
        const [low, high, to] = [items[i], items[i + 1], items[i + 2]];
        if (!(low instanceof PdfString) || !(high instanceof PdfString) || low.bytes.length > 4 || high.bytes.length > 4) continue;
        const range: Range = {
          low: codeAt(low.bytes, 0, low.bytes.length),
          high: codeAt(high.bytes, 0, high.bytes.length),
          to: Array.isArray(to) ? to.slice(0, LIMITS.maxCMapEntries).map(destination) : destination(to),
        };
        if (range.high < range.low) continue;
        cmap.ranges.push(range);
        entries += Array.isArray(range.to) ? range.to.length : 1;
      }
    }
  }
  budget.map(entries);
  cmap.ranges.sort((a, b) => a.low - b.low);
  return cmap;
}
