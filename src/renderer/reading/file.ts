// A received PDF's objects, found by one pass over the file rather than through its cross-reference table: the
// table of a file from outside is often wrong, and one code path is easier to bound than two. The pass finds each
// `n g obj`, steps over the object to find where it ends (a stream's bytes by /Length, else up to
// `endstream`), and keeps only where it starts; an object is read again, and kept, when something asks for it.
// Object streams (PDF 1.5, which pdf-lib writes) are inflated once the pass is done. A later definition of an
// object replaces an earlier one, as an incremental update does.
import { decodeStream, PdfUnsupported } from './decode';
import { Budget, LIMITS, PdfLimit, PdfRefused } from './limits';
import { Lexer, PdfDict, PdfName, PdfRef, PdfStream, PdfSyntax, type PdfValue } from './objects';
import { findBytes, findObject, findWord } from './search';

/** Where an object is: at `at` in the file (its stream's bytes from `data`), or at `offset` in an object stream's bytes. */
type Entry = { at: number; data?: [number, number] } | { at: number; packed: Uint8Array; offset: number };

export class PdfFile {
  private readonly table = new Map<number, Entry>();
  private readonly cache = new Map<number, PdfValue | null>();
  private readonly reading = new Set<number>();
  private cachedItems = 0;
  readonly trailer: PdfDict;

  constructor(readonly bytes: Uint8Array, readonly budget: Budget = new Budget(bytes.length)) {
    // The header may follow up to 1 KB of junk (ISO 32000-1 Annex H); anything else is not a PDF.
    const header = findBytes(bytes.subarray(0, 1024 + 5), '%PDF-', 0);
    if (header < 0) throw new PdfRefused('The file is not a PDF: it has no PDF header.');
    const scanned = this.scan(header);
    const { objectStreams, catalog } = scanned;
    const trailers = scanned.trailers.map((trailer) => (typeof trailer === 'number' ? this.dict(new PdfRef(trailer, 0)) : trailer)).filter((t): t is PdfDict => t !== null);
    // Without the key (RC4/AES with a password, or permissions only), strings and streams are noise.
    if (trailers.some((trailer) => trailer.get('Encrypt') !== undefined)) {
      throw new PdfRefused('The PDF is encrypted: it can be read once it is sent without a password or restrictions.');
    }
    for (const stream of objectStreams) this.unpack(stream);
    const merged = new Map<string, PdfValue>();
    for (const trailer of trailers) for (const [key, value] of trailer.entries) merged.set(key, value);
    if (!merged.has('Root') && catalog !== null) merged.set('Root', new PdfRef(catalog, 0));
    this.trailer = new PdfDict(merged);
  }

  /** The value behind a reference (a chain of them followed); anything else as it is. Missing or broken: null. */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    for (let hops = 0; value instanceof PdfRef; hops++) {
      if (hops === LIMITS.maxReferenceHops) throw new PdfLimit('The PDF has a chain of references that loops.');
      value = this.object(value.num);
    }
    return value;
  }

  dict(value: PdfValue | undefined): PdfDict | null {
    const resolved = this.resolve(value);
    return resolved instanceof PdfDict ? resolved : resolved instanceof PdfStream ? resolved.dict : null;
  }

  stream(value: PdfValue | undefined): PdfStream | null {
    const resolved = this.resolve(value);
    return resolved instanceof PdfStream ? resolved : null;
  }

  name(value: PdfValue | undefined): string | null {
    const resolved = this.resolve(value);
    return resolved instanceof PdfName ? resolved.name : null;
  }

  array(value: PdfValue | undefined): PdfValue[] {
    const resolved = this.resolve(value);
    return Array.isArray(resolved) ? resolved : [];
  }

  /** A stream's bytes decoded; throws PdfUnsupported for a filter not read here, PdfLimit past a ceiling. */
  decode(stream: PdfStream): Uint8Array {
    return decodeStream(stream, this.budget, (value) => this.resolve(value));
  }

  catalog(): PdfDict {
    const catalog = this.dict(this.trailer.get('Root'));
    if (!catalog) throw new PdfRefused('The PDF has no document catalog: it is damaged beyond reading.');
    return catalog;
  }

  /** Object `num`, read from where the pass found it; null when it is not there or does not read. */
  private object(num: number): PdfValue | null {
    const cached = this.cache.get(num);
    if (cached !== undefined) return cached;
    const entry = this.table.get(num);
    // An object whose reading asks for itself (a /Length pointing at its own stream) is not there.
    if (!entry || this.reading.has(num)) return null;
    this.reading.add(num);
    let value: PdfValue | null = null;
    let items = 0;
    try {
      if ('packed' in entry) {
        const lexer = new Lexer(entry.packed, this.budget, entry.offset);
        value = lexer.readValue();
        items = lexer.items;
      } else {
        const lexer = new Lexer(this.bytes, this.budget, entry.at);
        lexer.readValue();
        lexer.readValue();
        if (!lexer.skipWord('obj')) throw new PdfSyntax('not an object');
        value = lexer.readValue();
        items = lexer.items;
        if (entry.data && value instanceof PdfDict) value = new PdfStream(value, this.bytes.subarray(...entry.data));
      }
    } catch (error) {
      if (!(error instanceof PdfSyntax)) throw error;
    } finally {
      this.reading.delete(num);
    }
    // What is kept is bounded too: a file of many large objects is read again where asked, never all held.
    if (this.cachedItems + items <= LIMITS.maxCachedItems) {
      this.cachedItems += items;
      this.cache.set(num, value);
    }
    return value;
  }

  private define(num: number, entry: Entry): void {
    if (!this.table.has(num) && this.table.size >= LIMITS.maxObjects) throw new PdfLimit(`The PDF has more than ${LIMITS.maxObjects.toLocaleString('en-US')} objects.`);
    this.table.set(num, entry);
  }

  private scan(from: number) {
    const trailers: (PdfDict | number)[] = [];
    const objectStreams: { num: number; at: number }[] = [];
    let catalog: number | null = null;
    const lexer = new Lexer(this.bytes, this.budget);
    // The next object and the next trailer ahead, each searched for again only once the pass is past it.
    let object = findObject(this.bytes, from);
    let trailer = findWord(this.bytes, 'trailer', from);
    for (let pos = from; object || trailer >= 0;) {
      try {
        if (trailer >= 0 && (!object || trailer < object.at)) {
          lexer.pos = trailer + 'trailer'.length;
          pos = lexer.pos;
          const dict = lexer.readValue();
          if (dict instanceof PdfDict) trailers.push(dict);
          pos = lexer.pos;
          continue;
        }
        const { num, at, end } = object!;
        lexer.pos = pos = end;
        const { dict, type, length } = lexer.skim();
        const data = dict && lexer.skipWord('stream') ? this.streamData(lexer, length) : undefined;
        this.define(num, { at, data });
        pos = lexer.pos;
        if (type === 'Catalog') catalog = num;
        else if (data && type === 'ObjStm') objectStreams.push({ num, at });
        // A cross-reference stream's dictionary is the trailer of its section (read once the pass is done).
        else if (data && type === 'XRef') trailers.push(num);
      } catch (error) {
        // A broken object is skipped; the search goes on after its `obj` (or `trailer`).
        if (!(error instanceof PdfSyntax)) throw error;
      } finally {
        if (object && object.at < pos) object = findObject(this.bytes, pos);
        if (trailer >= 0 && trailer < pos) trailer = findWord(this.bytes, 'trailer', pos);
      }
    }
    return { trailers, objectStreams, catalog };
  }

  /** Where a stream's bytes start and end; the lexer is left after `endstream`. */
  private streamData(lexer: Lexer, length: PdfValue | undefined): [number, number] {
    const bytes = this.bytes;
    let start = lexer.pos;
    if (bytes[start] === 0x0d && bytes[start + 1] === 0x0a) start += 2;
    else if (bytes[start] === 0x0a || bytes[start] === 0x0d) start += 1;
    if (typeof length === 'number' && Number.isInteger(length) && length >= 0 && start + length <= bytes.length) {
      lexer.pos = start + length;
      if (lexer.skipWord('endstream')) return [start, start + length];
    }
    // An indirect /Length (its object may come later) or a wrong one: the bytes run to `endstream`.
    const end = findBytes(bytes, 'endstream', start);
    if (end < 0) {
      lexer.pos = bytes.length;
      return [start, bytes.length];
    }
    lexer.pos = end + 'endstream'.length;
    this.budget.lex(end - start);
    let last = end;
    if (bytes[last - 1] === 0x0a) last--;
    if (bytes[last - 1] === 0x0d) last--;
    return [start, Math.max(start, last)];
  }

  /** The objects of an object stream (ISO 32000-1 §7.5.7), unless a later part of the file defines them again. */
  private unpack({ num, at }: { num: number; at: number }): void {
    const stream = this.stream(new PdfRef(num, 0));
    if (!stream) return;
    const count = this.resolve(stream.dict.get('N'));
    const first = this.resolve(stream.dict.get('First'));
    if (typeof count !== 'number' || typeof first !== 'number' || count < 0 || first < 0) return;
    let bytes: Uint8Array;
    try {
      bytes = this.decode(stream);
    } catch (error) {
      if (error instanceof PdfUnsupported) return;
      throw error;
    }
    const header = new Lexer(bytes, this.budget, 0, false);
    try {
      for (let i = 0; i < count && !header.atEnd && header.pos < first; i++) {
        const objectNum = header.read();
        const offset = header.read();
        if (typeof objectNum !== 'number' || typeof offset !== 'number') break;
        const known = this.table.get(objectNum);
        if (!known || known.at < at) this.define(objectNum, { at, packed: bytes, offset: first + offset });
      }
    } catch (error) {
      if (!(error instanceof PdfSyntax)) throw error;
    }
    this.cache.clear();
    this.cachedItems = 0;
  }
}
