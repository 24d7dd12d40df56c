// PDF objects and the lexer that reads them, from a file's body, an object stream, a content stream or a CMap
// (ISO 32000-1 §7.2–7.3). Nesting is counted and capped (LIMITS.maxDepth), every byte walked over is charged to
// the reading's Budget, and nothing here allocates more than the bytes it reads.
import { CLASS, DELIMITER, isDigit, isRegular, WHITESPACE } from './characters';
import { type Budget, LIMITS, PdfLimit } from './limits';

export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfRef {
  constructor(readonly num: number, readonly gen: number) {}
}
/** A literal or hexadecimal string: bytes, whose meaning depends on where it stands (font codes, text, names). */
export class PdfString {
  constructor(readonly bytes: Uint8Array) {}
}
export class PdfDict {
  constructor(readonly entries: Map<string, PdfValue>) {}
  get(key: string): PdfValue | undefined {
    return this.entries.get(key);
  }
}
/** A stream's dictionary and its bytes as stored (still encoded by its /Filter). */
export class PdfStream {
  constructor(readonly dict: PdfDict, readonly data: Uint8Array) {}
}
/** A bare word: `obj`, `stream`, `R`, or a content stream's operator. */
export class PdfKeyword {
  constructor(
    readonly word: string,
    /** The word's bytes as a number when it has one to three (every operator): cheap to compare. */
    readonly code = operatorCode(word),
  ) {}
}

/** `Tj` → its bytes as a little-endian number; 0 for a word longer than three bytes. */
export function operatorCode(word: string): number {
  if (word.length > 3) return 0;
  let code = 0;
  for (let i = word.length - 1; i >= 0; i--) code = code * 256 + word.charCodeAt(i);
  return code;
}

/** Content streams are mostly operators: one keyword object for each short word, made once. */
const SHORT_WORDS = new Map<number, PdfKeyword>();

export type PdfValue = number | boolean | null | PdfName | PdfRef | PdfString | PdfDict | PdfStream | PdfValue[];

/** The bytes do not form an object where one was expected: the caller skips it (a reader tolerates a broken object). */
export class PdfSyntax extends Error {
  override name = 'PdfSyntax';
}

const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 256; c++) HEX[c] = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;

const WINDOWS_1252 = new TextDecoder('latin1');

/**
 * Bytes as characters, one per byte (names, keywords): a loop for the short runs they are, the platform's decoder
 * for a long one, which reads 0x80–0x9F as Windows-1252 does (a name that long is no name a reader looks for).
 */
export function latin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (end - start > 64) return WINDOWS_1252.decode(bytes.subarray(start, end));
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}

/** Whether bytes[at, end) are `word`'s characters. */
function spells(bytes: Uint8Array, at: number, end: number, word: string): boolean {
  if (end - at !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** The first `n` bytes, copied: for the short strings of a page a loop beats subarray, which V8 makes slow. */
function copyOf(bytes: Uint8Array, n: number): Uint8Array {
  if (n > 256) return bytes.slice(0, n);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = bytes[i]!;
  return out;
}

export class Lexer {
  /** Values inside the object being read (each item of its arrays and dictionaries, at any depth). */
  items = 0;

  constructor(
    readonly bytes: Uint8Array,
    private readonly budget: Budget,
    public pos = 0,
    /** `1 0 R` is a reference in a file's objects; content streams and CMaps have none, which spares the look-ahead. */
    private readonly references = true,
  ) {}

  get atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.bytes.length;
  }

  skipSpace(): void {
    const end = this.spaceEnd();
    this.budget.lex(end - this.pos);
    this.pos = end;
  }

  /** Where the whitespace and comments from the cursor end. */
  private spaceEnd(): number {
    const bytes = this.bytes;
    let p = this.pos;
    while (p < bytes.length) {
      const c = bytes[p]!;
      if (CLASS[c] === WHITESPACE) p++;
      else if (c === 0x25) while (p < bytes.length && bytes[p] !== 0x0a && bytes[p] !== 0x0d) p++;
      else break;
    }
    return p;
  }

  /** The next object, or the bare word standing there; throws PdfSyntax at the end of the bytes or on a stray delimiter. */
  read(depth = 0): PdfValue | PdfKeyword {
    if (depth === 0) this.items = 0;
    const from = this.pos;
    this.pos = this.spaceEnd();
    const bytes = this.bytes;
    const c = bytes[this.pos];
    // Arrays and dictionaries are charged by their items, each token once (with the whitespace before it).
    if (c === undefined || c === 0x5b || (c === 0x3c && bytes[this.pos + 1] === 0x3c)) {
      this.budget.lex(this.pos - from);
      if (c === undefined) throw new PdfSyntax('unexpected end of data');
      return c === 0x5b ? this.readArray(depth) : this.readDict(depth);
    }
    const start = this.pos;
    try {
      if (c === 0x2f) return this.readName();
      if (c === 0x28) return this.readLiteral();
      if (c === 0x3c) return this.readHex();
      if (isDigit(c) || c === 0x2d || c === 0x2b || c === 0x2e) return this.readNumber();
      if (CLASS[c] === DELIMITER) {
        this.pos++;
        throw new PdfSyntax(`unexpected "${String.fromCharCode(c)}"`);
      }
      let end = this.pos;
      while (isRegular(bytes[end])) end++;
      if (end - this.pos <= 3) {
        let code = 0;
        for (let i = end - 1; i >= this.pos; i--) code = code * 256 + bytes[i]!;
        this.pos = end;
        const known = SHORT_WORDS.get(code);
        if (known) return known;
        const keyword = new PdfKeyword(latin1(bytes, start, end), code);
        // Kept only while few: a hostile file's made-up words must not fill the isolate's memory.
        if (SHORT_WORDS.size < 512) SHORT_WORDS.set(code, keyword);
        return keyword;
      }
      const word = latin1(bytes, this.pos, end);
      this.pos = end;
      return word === 'true' ? true : word === 'false' ? false : word === 'null' ? null : new PdfKeyword(word);
    } finally {
      // Charged even when the token fails (a string that runs to the end of the file).
      this.budget.lex(this.pos - from + 1);
    }
  }

  /** The next object; a bare word there is a syntax error. */
  readValue(depth = 0): PdfValue {
    const value = this.read(depth);
    if (value instanceof PdfKeyword) throw new PdfSyntax(`unexpected "${value.word.slice(0, 20)}"`);
    return value;
  }

  /** Whether `word` stands next (after whitespace), as a whole token; moves past it if so. */
  skipWord(word: string): boolean {
    this.skipSpace();
    const bytes = this.bytes;
    for (let i = 0; i < word.length; i++) if (bytes[this.pos + i] !== word.charCodeAt(i)) return false;
    if (isRegular(bytes[this.pos + word.length])) return false;
    this.pos += word.length;
    return true;
  }

  /**
   * Past the next object without building it: the pass over a file needs only where each object ends, and building
   * every value of a 10 MB file cost three times as much. The same tokens and depth ceiling as `read`, each byte
   * charged once. Of a dictionary, its top-level /Type (a name) and /Length are given back: what the pass looks at.
   */
  skim(): { dict: boolean; type: string | null; length: PdfValue | undefined } {
    const start = this.pos;
    this.pos = this.spaceEnd();
    const bytes = this.bytes;
    const found = { dict: false, type: null as string | null, length: undefined as PdfValue | undefined };
    try {
      if (bytes[this.pos] !== 0x3c || bytes[this.pos + 1] !== 0x3c) {
        this.skimValue(0);
        return found;
      }
      found.dict = true;
      this.pos += 2;
      for (;;) {
        this.pos = this.spaceEnd();
        if (bytes[this.pos] === 0x3e && bytes[this.pos + 1] === 0x3e) {
          this.pos += 2;
          return found;
        }
        if (bytes[this.pos] !== 0x2f) {
          this.skimValue(1); // not a key: passed over, as `read` does
          continue;
        }
        const key = this.keyAt();
        if (key === 'Type') {
          this.pos = this.spaceEnd();
          if (bytes[this.pos] === 0x2f) found.type = this.readName().name;
          else this.skimValue(1);
        } else if (key === 'Length') {
          const length = this.read(1);
          if (!(length instanceof PdfKeyword)) found.length = length;
        } else this.skimValue(1);
      }
    } finally {
      this.budget.lex(this.pos - start);
    }
  }

  /** The name key at the cursor (moved past it) when it is one of the two `skim` looks for; else null. */
  private keyAt(): 'Type' | 'Length' | null {
    const bytes = this.bytes;
    const at = this.pos + 1;
    let end = at;
    while (isRegular(bytes[end])) end++;
    this.pos = end;
    return spells(bytes, at, end, 'Type') ? 'Type' : spells(bytes, at, end, 'Length') ? 'Length' : null;
  }

  /** Past one value (and everything inside it), `depth` levels down already. */
  private skimValue(depth: number): void {
    const bytes = this.bytes;
    let level = 0;
    do {
      this.pos = this.spaceEnd();
      const c = bytes[this.pos];
      if (c === undefined) throw new PdfSyntax('unexpected end of data');
      if (c === 0x5b || (c === 0x3c && bytes[this.pos + 1] === 0x3c)) {
        this.deeper(depth + level++);
        this.pos += c === 0x5b ? 1 : 2;
      } else if (c === 0x5d || (c === 0x3e && bytes[this.pos + 1] === 0x3e)) {
        this.pos += c === 0x5d ? 1 : 2;
        if (level > 0) level--;
      } else if (c === 0x28) this.skimLiteral();
      else if (c === 0x3c) {
        const end = bytes.indexOf(0x3e, this.pos + 1);
        if (end < 0) {
          this.pos = bytes.length;
          throw new PdfSyntax('a hexadecimal string without its end');
        }
        this.pos = end + 1;
      } else if (CLASS[c] === DELIMITER && c !== 0x2f) this.pos++; // a stray ) > { }
      else {
        this.pos++; // a name's slash, or the first byte of a number or word
        while (isRegular(bytes[this.pos])) this.pos++;
      }
    } while (level > 0);
  }

  private skimLiteral(): void {
    const bytes = this.bytes;
    let nesting = 0;
    for (let p = this.pos; p < bytes.length; p++) {
      const c = bytes[p];
      if (c === 0x5c) p++;
      else if (c === 0x28) nesting++;
      else if (c === 0x29 && --nesting === 0) {
        this.pos = p + 1;
        return;
      }
    }
    this.pos = bytes.length;
    throw new PdfSyntax('a string without its end');
  }

  private deeper(depth: number): number {
    if (depth >= LIMITS.maxDepth) throw new PdfLimit(`The PDF nests arrays and dictionaries more than ${LIMITS.maxDepth} levels deep.`);
    return depth + 1;
  }

  private count(): void {
    if (++this.items > LIMITS.maxItemsPerObject) throw new PdfLimit(`The PDF has an object of more than ${LIMITS.maxItemsPerObject.toLocaleString('en-US')} values.`);
  }

  private readArray(depth: number): PdfValue[] {
    const inner = this.deeper(depth);
    this.pos++;
    this.budget.lex(2);
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.bytes[this.pos] === 0x5d) {
        this.pos++;
        return items;
      }
      this.count();
      const item = this.read(inner);
      // A stray word inside an array (a broken file) is dropped, as readers do.
      if (!(item instanceof PdfKeyword)) items.push(item);
    }
  }

  private readDict(depth: number): PdfDict {
    const inner = this.deeper(depth);
    this.pos += 2;
    this.budget.lex(4);
    const entries = new Map<string, PdfValue>();
    for (;;) {
      this.skipSpace();
      const c = this.bytes[this.pos];
      if (c === 0x3e && this.bytes[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return new PdfDict(entries);
      }
      this.count();
      const key = this.read(inner);
      if (!(key instanceof PdfName)) continue; // not a key: skipped, as readers do
      const value = this.read(inner);
      if (!(value instanceof PdfKeyword)) entries.set(key.name, value);
    }
  }

  private readNumber(): number | PdfRef {
    const bytes = this.bytes;
    let p = this.pos;
    let negative = false;
    while (bytes[p] === 0x2d || bytes[p] === 0x2b) negative = bytes[p++] === 0x2d ? !negative : negative;
    let whole = 0;
    let fraction = 0;
    let scale = 1;
    let dot = false;
    for (; p < bytes.length; p++) {
      const c = bytes[p]!;
      if (c >= 0x30 && c <= 0x39) {
        if (dot) {
          fraction = fraction * 10 + (c - 0x30);
          scale *= 10;
        } else whole = whole * 10 + (c - 0x30);
      } else if (c === 0x2e && !dot) dot = true;
      else break;
    }
    this.pos = p;
    const value = (whole + fraction / scale) * (negative ? -1 : 1);
    if (!this.references || dot || negative) return value;
    // `num gen R`: look two tokens ahead, and step back when they are not that.
    const back = this.pos;
    this.skipSpace();
    if (isDigit(bytes[this.pos])) {
      let gen = 0;
      while (isDigit(bytes[this.pos])) gen = gen * 10 + (bytes[this.pos++]! - 0x30);
      this.skipSpace();
      if (bytes[this.pos] === 0x52 && !isRegular(bytes[this.pos + 1])) {
        this.pos++;
        return new PdfRef(value, gen);
      }
    }
    this.pos = back;
    return value;
  }

  private readName(): PdfName {
    const bytes = this.bytes;
    let end = this.pos + 1;
    while (isRegular(bytes[end])) end++;
    let raw = latin1(bytes, this.pos + 1, end);
    this.pos = end;
    if (raw.includes('#')) raw = raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return new PdfName(raw);
  }

  private readHex(): PdfString {
    const bytes = this.bytes;
    const end = bytes.indexOf(0x3e, this.pos + 1);
    if (end < 0) {
      this.pos = bytes.length; // searched to the end: charged as read
      throw new PdfSyntax('a hexadecimal string without its end');
    }
    const out = new Uint8Array((end - this.pos) >> 1);
    let n = 0;
    let high = -1;
    for (let p = this.pos + 1; p < end; p++) {
      const v = HEX[bytes[p]!]!;
      if (v < 0) continue;
      if (high < 0) high = v;
      else {
        out[n++] = (high << 4) | v;
        high = -1;
      }
    }
    if (high >= 0) out[n++] = high << 4;
    this.pos = end + 1;
    return new PdfString(n === out.length ? out : copyOf(out, n));
  }

  private readLiteral(): PdfString {
    const bytes = this.bytes;
    let p = this.pos + 1;
    let out = new Uint8Array(64);
    let n = 0;
    const put = (b: number) => {
      if (n === out.length) {
        const grown = new Uint8Array(out.length * 2);
        grown.set(out);
        out = grown;
      }
      out[n++] = b;
    };
    let nesting = 1;
    while (p < bytes.length) {
      const c = bytes[p++]!;
      if (c === 0x5c) {
        const e = bytes[p++];
        if (e === undefined) break;
        if (e === 0x6e) put(0x0a);
        else if (e === 0x72) put(0x0d);
        else if (e === 0x74) put(0x09);
        else if (e === 0x62) put(0x08);
        else if (e === 0x66) put(0x0c);
        else if (e === 0x0d) {
          if (bytes[p] === 0x0a) p++; // a line continued
        } else if (e === 0x0a) {
          // a line continued
        } else if (e >= 0x30 && e <= 0x37) {
          let code = e - 0x30;
          for (let i = 0; i < 2 && bytes[p]! >= 0x30 && bytes[p]! <= 0x37; i++) code = code * 8 + (bytes[p++]! - 0x30);
          put(code & 0xff);
        } else put(e);
      } else if (c === 0x28) {
        nesting++;
        put(c);
      } else if (c === 0x29) {
        if (--nesting === 0) {
          this.pos = p;
          return new PdfString(copyOf(out, n));
        }
        put(c);
      } else put(c);
    }
    this.pos = p;
    throw new PdfSyntax('a string without its end');
  }
}
