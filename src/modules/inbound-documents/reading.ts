// What each reader of an inbound document answers (§21 "Processing"): the queue consumer (consumer.ts) picks the
// reader by the format sniffed from the bytes and stores what it answers. The readers live in their own files and
// are loaded only by the consumer: read-xml-by-renderer.ts (CII, UBL Invoice and CreditNote, read with our EN 16931
// rules by read-xml.ts in the renderer worker), read-pdf.ts (through the renderer worker: a Factur-X/ZUGFeRD/XRechnung PDF's embedded XML, else its text) and
// model-extraction.ts (a PDF's text or an image, through the configured co-pilot provider).
import type { ExtractedValue, RuleIssueValue, ValidationValue } from './schemas';

/** A document read, or why it could not be (the document ends `failed` with `reason` as its `failure_reason`). */
export type Reading<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** An e-invoice's XML read and judged: `validation.valid` false still reads (the verdict is shown for review). */
export type XmlReading = Reading<{
  format: 'cii' | 'ubl';
  profile: string | null;
  extracted: ExtractedValue;
  validation: ValidationValue;
}>;

/** A PDF opened: its embedded e-invoice (by attachment name) if it has one, else its text for the model. */
export type PdfReading = Reading<{ xml: { name: string; content: string } | null; text: string }>;

/**
 * What the model filled in, checked like any input: totals that do not add up are `warnings`. `extracted: null`
 * (with a warning saying why, except under the `local` provider) is a document for a person to fill in: stored
 * `needs_review` like any reading. A reading with `retryAfter` is one the model could not be asked for yet (the
 * workspace's 10 extractions a minute are spent, or the provider did not answer in time): ask again after that many
 * seconds, the document unchanged; when no retry is left, store `unreadByModel(reason)` (model-extraction.ts) rather
 * than failing the document, which is not at fault.
 */
export type ModelReading =
  | Reading<{ extracted: ExtractedValue | null; confidence: number | null; warnings: RuleIssueValue[] }>
  | { ok: false; reason: string; retryAfter: number };
