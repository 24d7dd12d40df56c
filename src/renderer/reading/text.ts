// A PDF's text as a model needs it to read a supplier invoice (§21): each page's content streams in drawing order,
// the strings of the text-showing operators (Tj, TJ, ', ") decoded by their font, a line break where the text
// moves to another line and a space where it jumps along one. Text inside form XObjects is read too (some
// generators draw the whole page as one). No layout is reconstructed; the model reads it as written. It stops at
// LIMITS.maxTextChars, LIMITS.maxPages or LIMITS.maxContentBytes, and answers the text it has by then.
import { PdfUnsupported } from './decode';
import type { PdfFile } from './file';
import { type FontDecoder, fontDecoder } from './fonts';
import { LIMITS, PdfLimit } from './limits';
import { Lexer, operatorCode, PdfDict, PdfKeyword, PdfName, PdfRef, PdfStream, PdfString, PdfSyntax, type PdfValue } from './objects';

/** The operators read, by their code (objects.ts), which a switch compares faster than their names. */
const OP = Object.fromEntries(['BT', 'Tf', 'Td', 'TD', 'Tm', 'TL', 'T*', 'Tj', "'", '"', 'TJ', 'Do', 'BI'].map((op) => [op, operatorCode(op)])) as Record<
  'BT' | 'Tf' | 'Td' | 'TD' | 'Tm' | 'TL' | 'T*' | 'Tj' | "'" | '"' | 'TJ' | 'Do' | 'BI',
  number
>;

/** Operands kept for the next operator; more than any operator takes, the oldest dropped. */
const MAX_OPERANDS = 16;
/** A TJ adjustment (thousandths of the font size) wider than this is a gap between words. */
const WORD_GAP = 180;

class TextOut {
  private parts: string[] = [];
  length = 0;
  private last = '\n';
  /** Content bytes still to be read for text (LIMITS.maxContentBytes in all). */
  private contentLeft: number = LIMITS.maxContentBytes;

  get full(): boolean {
    return this.length >= LIMITS.maxTextChars;
  }

  /** Full, or the content allowance spent: nothing more is read. */
  get done(): boolean {
    return this.full || this.contentLeft <= 0;
  }

  /** As much of `content` as is still to be read: past the allowance, the text so far is the answer. */
  allow(content: Uint8Array): Uint8Array {
    const allowed = content.length <= this.contentLeft ? content : content.subarray(0, Math.max(0, this.contentLeft));
    this.contentLeft -= allowed.length;
    return allowed;
  }

  write(text: string): void {
    if (text) this.push(text);
  }

  space(): void {
    if (this.last !== ' ' && this.last !== '\n') this.push(' ');
  }

  newline(): void {
    if (this.last !== '\n') this.push('\n');
  }

  private push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    this.last = text[text.length - 1]!;
  }

  toString(): string {
    return this.parts
      .join('')
      // Controls (and U+FFFD from unmapped glyphs) carry nothing for a reader; a string's own tabs are spaces.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffd]/g, '')
      .replace(/[\t\r]/g, ' ')
      .split('\n')
      .map((line) => line.replace(/ {2,}/g, ' ').trim())
      .filter(Boolean)
      .join('\n')
      .slice(0, LIMITS.maxTextChars);
  }
}

export function pdfText(file: PdfFile): string {
  const out = new TextOut();
  const fonts = new Map<PdfDict, FontDecoder>();
  const forms = new Set<number>();
  for (const page of pages(file)) {
    if (out.done) break;
    const contents = file.resolve(page.get('Contents'));
    const streams = (Array.isArray(contents) ? contents : [contents]).map((c) => file.stream(c)).filter((s): s is PdfStream => s !== null);
    const parts = streams.map((s) => decoded(file, s)).filter((d): d is Uint8Array => d !== null);
    // A page's streams are one stream cut anywhere (§7.8.2), so they are read as one.
    const content = parts.length === 1 ? parts[0]! : joinWithSpace(parts);
    showText(file, content, inherited(file, page, 'Resources'), out, fonts, forms, 0);
    out.newline();
  }
  return out.toString();
}

/** A stream decoded, or null when its filter is not one read here (an image's, say): its text is not read. */
function decoded(file: PdfFile, stream: PdfStream): Uint8Array | null {
  try {
    return file.decode(stream);
  } catch (error) {
    if (error instanceof PdfUnsupported) return null;
    throw error;
  }
}

function joinWithSpace(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    out[at + part.length] = 0x0a;
    at += part.length + 1;
  }
  return out;
}

/** The page leaves in order, each visited once; a tree that loops or runs past the ceilings ends there. */
function pages(file: PdfFile): PdfDict[] {
  const root = file.dict(file.catalog().get('Pages'));
  if (!root) return [];
  const found: PdfDict[] = [];
  const seen = new Set<number>();
  const stack: { node: PdfDict; depth: number }[] = [{ node: root, depth: 0 }];
  let nodes = 0;
  while (stack.length && found.length < LIMITS.maxPages) {
    const { node, depth } = stack.pop()!;
    if (++nodes > LIMITS.maxTreeNodes) throw new PdfLimit('The PDF has a page tree too large to read.');
    const kids = file.resolve(node.get('Kids'));
    if (!Array.isArray(kids)) {
      found.push(node);
      continue;
    }
    if (depth >= LIMITS.maxDepth) continue;
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
  return found;
}

/** A page attribute that may be set on an ancestor (§7.7.3.4): Resources. */
function inherited(file: PdfFile, page: PdfDict, key: string): PdfDict | null {
  let node: PdfDict | null = page;
  for (let up = 0; node && up < LIMITS.maxDepth; up++) {
    const value = file.dict(node.get(key));
    if (value) return value;
    node = file.dict(node.get('Parent'));
  }
  return null;
}

function showText(file: PdfFile, content: Uint8Array, resources: PdfDict | null, out: TextOut, fonts: Map<PdfDict, FontDecoder>, forms: Set<number>, depth: number): void {
  const lexer = new Lexer(out.allow(content), file.budget, 0, false);
  // The operands since the last operator, the last MAX_OPERANDS of them: a ring, so that clearing it is free.
  const operands: PdfValue[] = new Array(MAX_OPERANDS).fill(null);
  let count = 0;
  let font: FontDecoder = () => '';
  // Where the text goes, as far as lines are concerned: the line matrix's vertical position (BT resets it), the
  // leading T* moves down by, and the position of the text last written, which carries over from one text object
  // to the next. Moving does not write anything; the next string shown is put on a new line if it is lower or
  // higher than the last, or after a space if it was moved along the same line.
  let y = 0;
  let leading = 0;
  let moved = false;
  let shownY: number | null = null;
  const show = (value: PdfValue | undefined) => {
    if (!(value instanceof PdfString)) return;
    if (shownY !== null && Math.abs(y - shownY) > 0.5) out.newline();
    else if (moved) out.space();
    moved = false;
    shownY = y;
    out.write(font(value.bytes));
  };
  const moveTo = (next: number) => {
    y = next;
    moved = true;
  };
  /** The operand `i` places before the operator (1: the last). */
  const at = (i: number) => (i <= count && i <= MAX_OPERANDS ? operands[(count - i) % MAX_OPERANDS] : undefined);
  while (!out.full) {
    let token: PdfValue | PdfKeyword;
    try {
      token = lexer.read();
    } catch (error) {
      if (!(error instanceof PdfSyntax)) throw error;
      if (lexer.pos >= lexer.bytes.length) break;
      // A broken token (a stray delimiter, a string cut off) is passed over, as viewers do.
      count = 0;
      continue;
    }
    if (!(token instanceof PdfKeyword)) {
      operands[count++ % MAX_OPERANDS] = token;
      continue;
    }
    switch (token.code) {
      case OP.BT:
        y = 0;
        break;
      case OP.Tf: {
        const name = at(2);
        const dict = name instanceof PdfName ? file.dict(file.dict(resources?.get('Font'))?.get(name.name)) : null;
        font = dict ? decoderFor(file, dict, fonts) : () => '';
        break;
      }
      case OP.Td:
      case OP.TD: {
        const dy = at(1);
        if (typeof dy !== 'number') break;
        if (token.code === OP.TD) leading = -dy;
        moveTo(y + dy);
        break;
      }
      case OP.TL: {
        const value = at(1);
        if (typeof value === 'number') leading = value;
        break;
      }
      case OP.Tm: {
        const f = at(1);
        if (typeof f === 'number') moveTo(f);
        break;
      }
      case OP['T*']:
        moveTo(y - leading);
        break;
      case OP.Tj:
        show(at(1));
        break;
      case OP["'"]:
      case OP['"']:
        moveTo(y - leading);
        show(at(1));
        break;
      case OP.TJ: {
        const items = at(1);
        if (!Array.isArray(items)) break;
        for (const item of items) {
          if (typeof item === 'number') {
            if (-item > WORD_GAP) out.space();
          } else show(item);
        }
        break;
      }
      case OP.Do: {
        // Each form is read once in a reading: a letterhead drawn on every page gives its text once, and a form
        // drawn a thousand times, or inside itself, costs no more than once.
        const name = at(1);
        const ref = name instanceof PdfName ? file.dict(resources?.get('XObject'))?.get(name.name) : undefined;
        if (!(ref instanceof PdfRef) || forms.has(ref.num) || depth >= LIMITS.maxFormDepth || out.done) break;
        forms.add(ref.num);
        const form = file.stream(ref);
        if (!form || file.name(form.dict.get('Subtype')) !== 'Form') break;
        const inner = decoded(file, form);
        if (!inner) break;
        out.newline();
        showText(file, inner, file.dict(form.dict.get('Resources')) ?? resources, out, fonts, forms, depth + 1);
        break;
      }
      case OP.BI:
        skipInlineImage(lexer);
        break;
    }
    count = 0;
  }
}

function decoderFor(file: PdfFile, dict: PdfDict, fonts: Map<PdfDict, FontDecoder>): FontDecoder {
  let decoder = fonts.get(dict);
  if (!decoder) fonts.set(dict, (decoder = fontDecoder(file, dict)));
  return decoder;
}

/** Past an inline image (BI … ID binary EI): its bytes are not content and would read as noise. */
function skipInlineImage(lexer: Lexer): void {
  while (!lexer.atEnd) {
    try {
      const token = lexer.read();
      if (token instanceof PdfKeyword && token.word === 'ID') break;
    } catch (error) {
      if (!(error instanceof PdfSyntax)) throw error;
    }
  }
  const bytes = lexer.bytes;
  const space = (c: number | undefined) => c === undefined || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
  for (let p = lexer.pos + 1; p < bytes.length; p++) {
    p = bytes.indexOf(0x45, p);
    if (p < 0) break;
    if (bytes[p + 1] === 0x49 && space(bytes[p - 1]) && space(bytes[p + 2])) {
      lexer.pos = p + 2;
      return;
    }
  }
  lexer.pos = bytes.length;
}
