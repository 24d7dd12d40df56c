// A stream's bytes decoded through its /Filter chain, with a ceiling on what comes out. FlateDecode is where a
// compression bomb hides (deflate reaches about 1,000:1, so 1 MB of a PDF can inflate to a gigabyte): pako's
// inflater hands its output over in 64 KB chunks, and the first chunk past the ceiling stops it, so at most the
// ceiling is ever held. (The platform's DecompressionStream inflates everything written to it before the first
// chunk can be read, and pdf-lib's own decoder has no ceiling; pako is the inflater pdf-lib already brings.)
import pako from 'pako';
import { type Budget, LIMITS, PdfLimit } from './limits';
import { PdfDict, PdfName, type PdfStream, type PdfValue } from './objects';

/** A filter this reader does not decode (LZW, DCT, …): the stream is skipped, or the reading fails where it matters. */
export class PdfUnsupported extends Error {
  override name = 'PdfUnsupported';
}

/** Output is handed over in chunks of this much at most: what is held past the ceiling before it stops. */
const CHUNK = 64 * 1024;

/** `data` inflated (zlib, else raw deflate); what a damaged stream gave before its damage is kept, as readers do. */
export function inflate(data: Uint8Array, budget: Budget, max: number = LIMITS.maxStreamBytes): Uint8Array {
  const attempt = (raw: boolean) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const take = (chunk: Uint8Array) => {
      if (!chunk.length) return;
      total += chunk.length;
      if (total > max) throw new PdfLimit(`A compressed stream in the PDF inflates to more than ${max / 1024 / 1024} MB.`);
      budget.inflate(chunk.length);
      chunks.push(chunk);
    };
    // A small stream gets a small buffer (most of a page's are a few KB).
    const inflater = new pako.Inflate({ chunkSize: Math.min(CHUNK, Math.max(4096, data.length * 4)), raw });
    inflater.onData = (chunk) => take(chunk as Uint8Array);
    inflater.onEnd = () => {};
    inflater.push(data, true);
    if (inflater.err) {
      // pako drops the chunk it was filling when the data breaks off: what it holds is still good output.
      const strm = (inflater as unknown as { strm: { output?: Uint8Array; next_out: number } }).strm;
      if (strm.output && strm.next_out) take(strm.output.slice(0, strm.next_out));
    }
    return { bytes: join(chunks, total), failed: Boolean(inflater.err) };
  };
  const zlib = attempt(false);
  // A stream written without the zlib header (seen in the wild) fails at once with nothing out.
  if (zlib.failed && zlib.bytes.length === 0) return attempt(true).bytes;
  return zlib.bytes;
}

function join(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The stream's bytes through every filter it names; `resolve` follows references in the dictionary. */
export function decodeStream(stream: PdfStream, budget: Budget, resolve: (value: PdfValue | undefined) => PdfValue | undefined): Uint8Array {
  const filter = resolve(stream.dict.get('Filter'));
  const filters = Array.isArray(filter) ? filter.map((f) => resolve(f)) : filter === undefined || filter === null ? [] : [filter];
  const params = resolve(stream.dict.get('DecodeParms'));
  let data = stream.data;
  filters.forEach((f, i) => {
    if (!(f instanceof PdfName)) throw new PdfUnsupported('a filter that is not a name');
    const param = resolve(Array.isArray(params) ? params[i] : params);
    switch (f.name) {
      case 'FlateDecode':
      case 'Fl': {
        const predictor = param instanceof PdfDict ? resolve(param.get('Predictor')) : undefined;
        if (typeof predictor === 'number' && predictor > 1) throw new PdfUnsupported('FlateDecode with a predictor');
        data = inflate(data, budget);
        break;
      }
      case 'ASCIIHexDecode':
      case 'AHx':
        data = asciiHex(data);
        break;
      case 'ASCII85Decode':
      case 'A85':
        data = ascii85(data);
        budget.inflate(data.length);
        break;
      default:
        throw new PdfUnsupported(`the filter ${f.name}`);
    }
  });
  return data;
}

function asciiHex(data: Uint8Array): Uint8Array {
  const out = new Uint8Array((data.length + 1) >> 1);
  let n = 0;
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out[n++] = (high << 4) | v;
      high = -1;
    }
  }
  if (high >= 0) out[n++] = high << 4;
  return out.subarray(0, n);
}

function ascii85(data: Uint8Array): Uint8Array {
  // Each `z` stands for four zero bytes, so the output can be four times the input; never more than the ceiling.
  const out = new Uint8Array(Math.min(data.length * 4, LIMITS.maxStreamBytes) + 4);
  let n = 0;
  let group = 0;
  let count = 0;
  for (let i = 0; i < data.length; i++) {
    if (n > LIMITS.maxStreamBytes) throw new PdfLimit(`A stream in the PDF decodes to more than ${LIMITS.maxStreamBytes / 1024 / 1024} MB.`);
    const c = data[i]!;
    if (c === 0x7e) break; // ~> ends the data
    if (c === 0x7a && count === 0) {
      n += 4;
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group = group * 85 + (c - 0x21);
    if (++count === 5) {
      out[n++] = group >>> 24;
      out[n++] = (group >>> 16) & 0xff;
      out[n++] = (group >>> 8) & 0xff;
      out[n++] = group & 0xff;
      group = 0;
      count = 0;
    }
  }
  if (count > 1) {
    for (let i = count; i < 5; i++) group = group * 85 + 84;
    for (let i = 0; i < count - 1; i++) out[n++] = (group >>> (24 - 8 * i)) & 0xff;
  }
  return out.subarray(0, n);
}
