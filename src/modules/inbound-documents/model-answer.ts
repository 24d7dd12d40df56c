// What a model answered, read like any other input (§21 "Processing"): the `Extracted` schema field by field, amounts
// integer minor units within §7's bound, dates real calendar dates. A field that does not fit is left empty with a
// warning naming it, instead of throwing the whole reading away: a person reviews every model reading, and a receipt
// with its total read and its date missing is still most of the typing done. Then the figures are checked against
// each other (model-totals.ts): what does not add up is a warning, never trusted silently.
import type { z } from '@hono/zod-openapi';
import { MAX_MINOR_AMOUNT } from '../../lib/money';
import { totalsWarnings } from './model-totals';
import { Extracted, ExtractedLine, ExtractedSupplier, ExtractedTaxGroup, type ExtractedValue, type RuleIssueValue } from './schemas';

export type CheckedAnswer = { extracted: ExtractedValue | null; confidence: number | null; warnings: RuleIssueValue[] };

/** A model reading's field warnings past this many are summed up in one, so a 1,000-line answer of nonsense stays readable. */
const MAX_WARNINGS = 50;

/** `Extracted`'s own bounds on its lists (zod keeps them in checks, not as properties to read). */
const MAX_TAX_GROUPS = 50;
const MAX_LINES = 1000;

const AMOUNT_FIELDS = new Set(['subtotal', 'tax', 'total', 'taxable_amount', 'tax_amount', 'unit_amount', 'amount']);

class Warnings {
  readonly list: RuleIssueValue[] = [];
  private dropped = 0;

  add(rule: string, message: string, path: string | null = null) {
    if (this.list.length < MAX_WARNINGS) this.list.push({ rule, message, path });
    else this.dropped++;
  }

  done(): RuleIssueValue[] {
    if (this.dropped) this.list.push({ rule: 'MODEL-FIELD', message: `${this.dropped} more of the model's values were not usable and were left empty.`, path: null });
    return this.list;
  }
}

/** The JSON object in what a model wrote: its text (bare or in a Markdown code fence) or an object a binding parsed. */
function answerObject(content: unknown): Record<string, unknown> | null {
  let value = content;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
    } catch {
      return null;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * Each field of `shape` from `given`, valid or null: an absent field or an empty string is null without a word (a
 * document that does not state it); a value that does not fit is null with a warning at its path. One-line fields
 * get their line breaks as spaces first (a model copies an address as printed, over several lines).
 */
function fields(shape: Record<string, z.ZodType>, given: unknown, path: string, warnings: Warnings, multiLine: string[] = []) {
  if (given !== undefined && given !== null && (typeof given !== 'object' || Array.isArray(given))) {
    warnings.add('MODEL-FIELD', `The model's ${path.slice(0, -1)} was not an object and was left empty.`, path.slice(0, -1));
  }
  const source = record(given);
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    let value = source[key];
    if (typeof value === 'string') {
      value = multiLine.includes(key) ? value.trim() : value.replace(/\s+/g, ' ').trim();
      if (value === '') value = null;
    }
    if (value === undefined || value === null) {
      out[key] = null;
      continue;
    }
    const parsed = schema.safeParse(value);
    const tooLarge = parsed.success && AMOUNT_FIELDS.has(key) && Math.abs(parsed.data as number) > MAX_MINOR_AMOUNT;
    if (parsed.success && !tooLarge) {
      out[key] = parsed.data;
      continue;
    }
    out[key] = null;
    const why = tooLarge ? `more than ${MAX_MINOR_AMOUNT} minor units` : (parsed.error?.issues[0]?.message ?? 'not valid');
    warnings.add('MODEL-FIELD', `The model's ${key} was not usable (${why}) and was left empty.`, `${path}${key}`);
  }
  return out;
}

/** A list the model answered, at most `max` items; items that are not objects are dropped with a warning. */
function items(given: unknown, max: number, path: string, warnings: Warnings): { item: unknown; at: string }[] {
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given)) {
    warnings.add('MODEL-FIELD', `The model's ${path} was not a list and was left empty.`, path);
    return [];
  }
  if (given.length > max) warnings.add('MODEL-FIELD', `The model answered ${given.length} ${path}; the first ${max} were kept.`, path);
  const kept: { item: unknown; at: string }[] = [];
  given.slice(0, max).forEach((item, i) => {
    if (item && typeof item === 'object' && !Array.isArray(item)) kept.push({ item, at: `${path}.${i}` });
    else warnings.add('MODEL-FIELD', `The model's ${path} item ${i + 1} was not an object and was dropped.`, `${path}.${i}`);
  });
  return kept;
}

function clampedConfidence(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.min(1, Math.max(0, value));
}

/** A model's answer as an extraction: what fits `Extracted`, with a warning for each part that did not and each total that does not add up. */
export function checkModelAnswer(content: unknown): CheckedAnswer {
  const answer = answerObject(content);
  if (!answer) {
    const issue = { rule: 'MODEL-UNUSABLE', message: 'The model did not answer with a JSON object: nothing was read; fill in the fields from the document.', path: null };
    return { extracted: null, confidence: null, warnings: [issue] };
  }
  const warnings = new Warnings();
  const { kind, supplier: _supplier, tax_breakdown: _groups, lines: _lines, ...top } = Extracted.shape;
  const kindRead = kind.safeParse(answer.kind);
  if (!kindRead.success && answer.kind !== undefined) warnings.add('MODEL-FIELD', "The model's kind was not invoice or credit_note; it is taken as an invoice.", 'kind');

  const groups = items(answer.tax_breakdown, MAX_TAX_GROUPS, 'tax_breakdown', warnings).flatMap(({ item, at }) => {
    const group = fields(ExtractedTaxGroup.shape, item, `${at}.`, warnings);
    if (Object.values(group).every((value) => value !== null)) return [group];
    warnings.add('MODEL-FIELD', `The model's tax group ${Number(at.split('.')[1]) + 1} lacks a category, rate or amount and was dropped.`, at);
    return [];
  });

  const candidate = {
    kind: kindRead.success ? kindRead.data : 'invoice',
    supplier: fields(ExtractedSupplier.shape, answer.supplier, 'supplier.', warnings),
    ...fields(top, answer, '', warnings),
    tax_breakdown: groups,
    lines: items(answer.lines, MAX_LINES, 'lines', warnings).map(({ item, at }) => fields(ExtractedLine.shape, item, `${at}.`, warnings, ['description'])),
  };
  // Each part was checked on its own; the whole is parsed once more so what is stored is exactly what the API shows.
  const extracted = Extracted.safeParse(candidate);
  if (!extracted.success) {
    const issue = extracted.error.issues[0];
    warnings.add('MODEL-UNUSABLE', `The model's answer did not fit the document's fields (${issue?.path.join('.')}: ${issue?.message}); nothing was kept.`);
    return { extracted: null, confidence: null, warnings: warnings.done() };
  }
  // The totals' warnings come last and are never summed up: they say where to look first.
  return { extracted: extracted.data, confidence: clampedConfidence(answer.confidence), warnings: [...warnings.done(), ...totalsWarnings(extracted.data)] };
}
