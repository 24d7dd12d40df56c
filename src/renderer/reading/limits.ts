// The ceilings that keep reading a received PDF bounded (§21 "Processing": a compression bomb or a hostile 10 MB file
// ends `failed`, and the worker keeps answering). A Worker cannot see its own CPU time (Date.now() stands still while
// code runs), so every bound counts work instead: bytes in, bytes inflated, bytes lexed, nesting, objects, pages.
// Each one reached throws a PdfLimit whose message is the document's failure reason, for a person to read.
import { PDF_READING_MAX_BYTES } from '../contract';

export const LIMITS = {
  /** The largest file read: an email brings at most 25 MB (§21), an upload 10 MB. */
  maxInputBytes: PDF_READING_MAX_BYTES,
  /** One stream inflated: a ZUGFeRD XML or a page's content is a fraction of this. */
  maxStreamBytes: 10 * 1024 * 1024,
  /** All streams inflated in one reading, together: a supplier invoice's pages inflate to a few hundred KB. */
  maxInflatedBytes: 16 * 1024 * 1024,
  /**
   * Bytes the lexer may walk over in one reading: the pass over the file, then 16 MB for all the rest (a supplier
   * invoice needs a few hundred KB). The bound on CPU whatever the file does: at 10–20 ns a byte, under half a
   * second for 10 MB (bench/pdf-reading.mjs).
   */
  lexedBytes: (inputBytes: number) => inputBytes + 16 * 1024 * 1024,
  /** Arrays and dictionaries inside each other; real files stay under 20. */
  maxDepth: 64,
  /** Indirect objects in the file (and in its object streams); an invoice has hundreds. */
  maxObjects: 100_000,
  /** Values inside one object (a page's /Kids, a font's /Widths): each costs memory while it is held. */
  maxItemsPerObject: 100_000,
  /** Values of the objects kept once read; past this, an object is read again when asked for, not kept. */
  maxCachedItems: 250_000,
  /** `1 0 R` pointing at `2 0 R` pointing at …: a chain longer than this is a loop. */
  maxReferenceHops: 32,
  /** Pages whose text is read; the text runs out long before on any invoice. */
  maxPages: 2_000,
  /** Nodes of a page tree or name tree visited. */
  maxTreeNodes: 20_000,
  /** Form XObjects drawn inside each other. */
  maxFormDepth: 4,
  /** The text handed on (to the model, §21): enough for any supplier invoice. */
  maxTextChars: 50_000,
  /**
   * Content stream bytes read for that text: 50,000 characters of text take a few hundred KB of content, so a page
   * past this is drawing, not text; the text read by then is the answer.
   */
  maxContentBytes: 8 * 1024 * 1024,
  /** Mappings of one font's ToUnicode CMap, and of all fonts' together. */
  maxCMapEntries: 65_536,
  maxMappings: 262_144,
} as const;

/** A ceiling reached: the reading stops and the document fails with this message. */
export class PdfLimit extends Error {
  override name = 'PdfLimit';
}

/** The file is not what a PDF must be (no header, no catalog, encrypted): the reading fails with this message. */
export class PdfRefused extends Error {
  override name = 'PdfRefused';
}

/** What one reading may still spend; shared by every part of it. */
export class Budget {
  private lexed = 0;
  private inflated = 0;
  private mapped = 0;
  private readonly maxLexed: number;

  constructor(inputBytes: number) {
    this.maxLexed = LIMITS.lexedBytes(inputBytes);
  }

  lex(bytes: number): void {
    this.lexed += bytes;
    if (this.lexed > this.maxLexed) throw new PdfLimit('The PDF is too complex to read: its structure takes more work than any invoice needs.');
  }

  inflate(bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > LIMITS.maxInflatedBytes) throw new PdfLimit(`The PDF's compressed streams inflate to more than ${LIMITS.maxInflatedBytes / 1024 / 1024} MB together.`);
  }

  map(entries: number): void {
    this.mapped += entries;
    if (this.mapped > LIMITS.maxMappings) throw new PdfLimit('The PDF\'s fonts map more characters than any invoice needs.');
  }
}
