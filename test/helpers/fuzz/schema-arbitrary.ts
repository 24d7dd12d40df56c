// fast-check arbitraries derived from the JSON Schemas in /openapi.json, so every operation, including
// ones added later, is fuzzed from what it documents. `validValue` generates what the document says
// is acceptable; `invalidMutation` breaks one named place of a valid value in a way the document
// (or the contract) forbids; `hostileValue` is anything a careless or malicious client might send.
//
// Where the server is stricter than JSON Schema can say, generation follows the server's documented
// rules so that "valid" stays valid: strings are trimmed (the server trims, then counts), numbers
// have at most 3 decimals (quantities, tax rates), ordered pairs come in order (start/due dates,
// budget min/max), ids name the caller's own records (a well-formed id of someone else's record is
// a 422 by contract), IBANs pass their checksum and `symbols` lists currency codes.
// (zocker was tried on the zod side: it cannot see refinements, so its "valid" currencies fail.)
import fc from 'fast-check';

export type Schema = Record<string, any>;
export type Components = { schemas?: Record<string, Schema> };

/** A reference to one of the caller's records, resolved to a real id when the request is sent. */
export const REF = '\u0000ref:';
const ID_PATTERN = /^\^([a-z]+)_\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/;
const idPrefixOf = (schema: Schema): string | null => (typeof schema.pattern === 'string' ? (schema.pattern.match(ID_PATTERN)?.[1] ?? null) : null);

const IBANS = ['DE89370400440532013000', 'GB82WEST12345698765432', 'FR1420041010050500013M02606', 'NL91ABNA0417164300'];
const MAX_STRING = 40; // long enough to matter, short enough to keep thousands of cases fast
const MAX_ITEMS = 3;

export function resolve(schema: Schema, components: Components): Schema {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 20; depth++) {
    const name = String(current.$ref).replace('#/components/schemas/', '');
    const target = components.schemas?.[name];
    if (!target) throw new Error(`Unresolvable $ref ${current.$ref}`);
    current = { ...target, ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')) };
  }
  // A nullable reference (`anyOf: [{$ref: OneLineText}, {type: null}]`) is the component's value or null.
  const options = current.anyOf as Schema[] | undefined;
  if (options?.length === 2 && options.some((option) => option.type === 'null')) {
    const { anyOf: _, ...rest } = current;
    const inner = resolve(options.find((option) => option.type !== 'null')!, components);
    if (!inner.anyOf && !inner.oneOf && types(inner).length === 1) current = { ...inner, ...rest, type: [...types(inner), 'null'] };
  }
  if (current.allOf) {
    const parts = (current.allOf as Schema[]).map((part) => resolve(part, components));
    const { allOf: _, ...rest } = current;
    current = {
      ...rest,
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), rest.properties ?? {}),
      required: [...new Set(parts.flatMap((p) => p.required ?? []).concat(rest.required ?? []))],
      additionalProperties: parts.some((p) => p.additionalProperties === false) ? false : rest.additionalProperties,
    };
  }
  return current;
}

const types = (schema: Schema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** Printable text with some non-ASCII, trimmed as the server trims it, within the length limits. */
function textArbitrary(min: number, max: number) {
  const unit = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,:;!?@#/&()\'"') },
    { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'ø', '漢', 'ق', '😀', '%', '\\', '<', '>', '*', 'NEAR') },
  );
  return fc
    .string({ unit, minLength: min, maxLength: Math.max(min, Math.min(max, MAX_STRING)) })
    .map((s) => s.trim())
    .filter((s) => s.length >= min && s.length <= max);
}

const calendarDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/), fc.stringMatching(/^[a-z]{2,10}$/), fc.constantFrom('com', 'org', 'io', 'de'))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

const hookUrl = fc.stringMatching(/^[a-z]{1,12}$/).map((word) => `https://hooks.${word}.example.com/${word}`);

// fast-check builds a pattern's arbitrary from its regex each time it is asked, and a body's
// arbitrary is asked for many times per operation: for a BIC's pattern that took 130 ms a time.
const matchingByPattern = new Map<string, fc.Arbitrary<string>>();
function matchingArbitrary(pattern: string): fc.Arbitrary<string> {
  let arbitrary = matchingByPattern.get(pattern);
  if (!arbitrary) matchingByPattern.set(pattern, (arbitrary = fc.stringMatching(new RegExp(pattern))));
  return arbitrary;
}

function stringArbitrary(schema: Schema, name: string): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as string[]));
  const prefix = idPrefixOf(schema);
  if (prefix) return fc.constant(`${REF}${prefix}`);
  if (name === 'iban') return fc.constantFrom(...IBANS);
  if (name === 'symbols') return fc.uniqueArray(fc.constantFrom('EUR', 'GBP', 'JPY', 'KWD', 'CHF', 'USD'), { minLength: 1, maxLength: 4 }).map((c) => c.join(','));
  if (schema.format === 'date') return calendarDate;
  if (schema.format === 'date-time') return calendarDate.map((d) => `${d}T08:00:00.000Z`);
  if (schema.format === 'email' || name === 'email') return email;
  if (schema.format === 'uri') return hookUrl;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 200;
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    // fast-check's matches are mostly short: for a long minimum (a 16-character token), matches are
    // also joined, which keeps a repeated character class (`^[A-Za-z0-9._-]+$`) matching; the filter
    // alone would reject nearly every draw.
    const matching = matchingArbitrary(schema.pattern);
    const long = fc.array(matching, { minLength: Math.max(1, Math.ceil(min / 2)), maxLength: Math.max(2, min) }).map((parts) => parts.join(''));
    return (min > 4 ? fc.oneof(matching, long, long, long) : matching).map((s) => s.trim()).filter((s) => s.length >= min && s.length <= max && pattern.test(s));
  }
  return textArbitrary(min, max);
}

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? Number.MIN_SAFE_INTEGER, schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -Infinity);
  const max = Math.min(schema.maximum ?? Number.MAX_SAFE_INTEGER, schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Infinity);
  const low = Math.max(min, -1000);
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: low, max: Math.min(max, low + 100_000) }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
    { weight: 2, arbitrary: fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number) },
  );
}

/** Numbers with at most 3 decimals (the server's rule for quantities and tax rates). */
function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  const lo = Math.ceil(schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum * 1000 + 1 : (schema.minimum ?? -1e9) * 1000);
  const hi = Math.floor(schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum * 1000 - 1 : (schema.maximum ?? 1e9) * 1000);
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.integer({ min: lo, max: Math.min(hi, lo + 100_000) }) },
      { weight: 1, arbitrary: fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number) },
    )
    .map((thousandths) => thousandths / 1000);
}

// Pairs the server documents as ordered ("never before", "at least"): generated in order, so that a
// valid body is valid as a whole and not only field by field.
/** A string the pattern refuses: punctuation for a shape (ids, codes), a control character for a text. */
function notMatching(pattern: string): string {
  const regex = new RegExp(pattern);
  return ['!not matching!', 'bell\u0007', '\u202Eflipped'].find((candidate) => !regex.test(candidate)) ?? '!not matching!';
}

const ORDERED_PAIRS = [['start_date', 'due_date'], ['issue_date', 'due_date'], ['budget_min', 'budget_max'], ['from', 'to'], ['issued_from', 'issued_to']] as const;

function inOrder(value: Record<string, unknown>) {
  for (const [low, high] of ORDERED_PAIRS) {
    const [a, b] = [value[low], value[high]];
    if (a !== undefined && a !== null && b !== undefined && b !== null && (a as number | string) > (b as number | string)) {
      value[low] = b;
      value[high] = a;
    }
  }
  return value;
}

type Line = { tax_category?: string; tax_rate?: number };

/**
 * The rules of §15 that tie a document's fields together, made to hold in a valid body: a category
 * fits its rate, O stands alone, an E line has an exemption reason, a discount amount is no more than
 * the subtotal (0 always is). Field by field these bodies were valid; this makes them valid as a whole.
 */
function consistentTaxes(value: Record<string, unknown>) {
  const lines = Array.isArray(value.line_items) ? (value.line_items as Line[]).filter((l) => l && typeof l === 'object') : [];
  if (lines.some((l) => l.tax_category === 'O') && !lines.every((l) => l.tax_category === 'O')) {
    for (const line of lines) if (line.tax_category === 'O') line.tax_category = 'Z';
  }
  const named = lines.some((l) => l.tax_category !== undefined && l.tax_category !== 'O');
  for (const line of lines) {
    if (line.tax_category === undefined) {
      // Rate 0 would default to O beside the named categories.
      if (named && !(line.tax_rate! > 0)) line.tax_category = 'Z';
      continue;
    }
    if (line.tax_category === 'S') line.tax_rate = line.tax_rate! > 0 ? line.tax_rate : 19;
    else line.tax_rate = 0;
  }
  if (lines.some((l) => l.tax_category === 'E') && !value.tax_exemption_reason && !value.tax_exemption_code) value.tax_exemption_reason = 'Exempt';
  const discount = value.discount as { amount?: number } | null | undefined;
  if (discount && typeof discount === 'object' && 'amount' in discount) discount.amount = 0;
  return value;
}

/** A value the schema accepts. */
export function validValue(schema: Schema, components: Components, name = ''): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map((option: Schema) => validValue(option, components, name)));
  if ('const' in s) return fc.constant(s.const);
  const options = types(s);
  if (options.length > 1) return fc.oneof(...options.map((type) => validValue({ ...s, type }, components, name)));
  switch (options[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return s.enum ? fc.constantFrom(...s.enum) : integerArbitrary(s);
    case 'number':
      return s.enum ? fc.constantFrom(...s.enum) : numberArbitrary(s);
    case 'string':
      return stringArbitrary(s, name);
    case 'array': {
      const min = s.minItems ?? 0;
      const bounds = { minLength: min, maxLength: Math.max(min, Math.min(s.maxItems ?? MAX_ITEMS, MAX_ITEMS)) };
      const item = validValue(s.items ?? {}, components, name);
      return s.uniqueItems ? fc.uniqueArray(item, { ...bounds, selector: (v) => JSON.stringify(v) }) : fc.array(item, bounds);
    }
    default: {
      if (!s.properties) return fc.constant({});
      const model = Object.fromEntries(Object.entries(s.properties as Record<string, Schema>).map(([key, sub]) => [key, validValue(sub, components, key)]));
      return fc.record(model, { requiredKeys: s.required ?? [] }).map(inOrder).map(consistentTaxes);
    }
  }
}

/** Strings, numbers and shapes that have broken servers before. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '', ' ', '\u0000', 'null', 'undefined', 'NaN', '-1', '0', '1e309', '9'.repeat(40), '__proto__', 'constructor',
    "' OR '1'='1' --", '"; DROP TABLE invoices; --', '%', '_', '%_%', '\\', '\\u0000', '../../etc/passwd',
    '<script>alert(1)</script>', '{{7*7}}', '${7*7}', '\u202Eevil', '\uFEFF', '\uD800', 'e\u0301', '\r\n', '\t',
    '"', '*', 'NEAR(', 'a OR b', '"unterminated', '^', 'AND', '-x', 'col:x',
    'a'.repeat(10_000), '😀'.repeat(2_000), 'ق'.repeat(3_000), `wsk_${'A'.repeat(40)}`, 'cli_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, 1.0001, 0.1 + 0.2, 1e-7, 2 ** 31, 2 ** 32 + 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 1e300, -1e300, Number.MAX_VALUE, Number.MIN_VALUE, 123456789.123456),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, [], {}, [null], { $ne: null }, JSON.parse('{"__proto__":{"admin":true}}'), [[[[[]]]]]) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

export type Mutation = { body: unknown; path: string; kind: string };
type Site = (junk: unknown) => Mutation;

/** Breaks a valid object at one place, in a way its schema forbids; `path` names where. */
export function invalidMutation(schema: Schema, components: Components, valid: unknown, pick: number, junk: unknown): Mutation | null {
  const sites = mutationSites(schema, components, valid, '');
  return sites.length ? sites[pick % sites.length]!(junk) : null;
}

/** Every way `invalidMutation` can break this valid value, for a sweep that tries each once. */
export function allMutations(schema: Schema, components: Components, valid: unknown): Mutation[] {
  return mutationSites(schema, components, valid, '').map((site) => site('junk'));
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function mutationSites(schema: Schema, components: Components, value: unknown, path: string): Site[] {
  const s = resolve(schema, components);
  if (s.anyOf || s.oneOf || !value || typeof value !== 'object' || Array.isArray(value) || !s.properties) return [];
  const obj = value as Record<string, unknown>;
  const sites: Site[] = [];
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const rebuild = (change: (copy: Record<string, unknown>) => void) => {
    const copy = structuredClone(obj);
    change(copy);
    return copy;
  };
  const set = (key: string, value: unknown, kind: string): Site => () => ({ body: rebuild((c) => void (c[key] = value)), path: at(key), kind });
  // An unknown field is refused (contract §3) in every body, wherever it appears, whatever the
  // document says: a schema that forgot to be strict must not make this check go quiet.
  sites.push(set('x_unknown_field', 1, 'unknown field'));
  for (const key of (s.required ?? []) as string[]) {
    sites.push(() => ({ body: rebuild((c) => void delete c[key]), path: at(key), kind: 'missing required' }));
  }
  for (const [key, sub] of Object.entries(s.properties as Record<string, Schema>)) {
    const field = resolve(sub, components);
    if (field.anyOf || field.oneOf) continue;
    const allowed = new Set(types(field));
    const takes = (v: unknown) => allowed.has(jsonType(v)) || (allowed.has('number') && jsonType(v) === 'integer');
    sites.push((junk) => {
      const wrong = [junk, 'text', 12, true, [], {}, null].find((v) => !takes(v))!;
      return set(key, wrong, `wrong type (${jsonType(wrong)})`)(junk);
    });
    if (field.enum) sites.push(set(key, 'not-in-the-enum', 'outside the enum'));
    if (field.maximum !== undefined) sites.push(set(key, field.maximum + 1, 'above maximum'));
    if (field.minimum !== undefined) sites.push(set(key, field.minimum - 1, 'below minimum'));
    if (field.exclusiveMinimum !== undefined) sites.push(set(key, field.exclusiveMinimum, 'at the exclusive minimum'));
    if (allowed.has('string') && field.maxLength !== undefined) sites.push(set(key, 'x'.repeat(field.maxLength + 1), 'too long'));
    if (allowed.has('string') && field.pattern) sites.push(set(key, notMatching(field.pattern), 'pattern'));
    if (allowed.has('string') && field.format === 'date') sites.push(set(key, '2026-02-30', 'impossible date'));
    if (allowed.has('integer') && !allowed.has('number')) sites.push(set(key, 1.5, 'fraction for an integer'));
    // Nested objects and arrays of objects get their own sites.
    const inner = obj[key];
    if (Array.isArray(inner) && field.items) {
      inner.forEach((item, i) => {
        for (const site of mutationSites(field.items, components, item, at(`${key}.${i}`))) {
          sites.push((junk) => {
            const m = site(junk);
            return { ...m, body: rebuild((c) => void ((c[key] as unknown[])[i] = m.body)) };
          });
        }
      });
      if (field.maxItems !== undefined && inner.length) sites.push(set(key, Array.from({ length: field.maxItems + 1 }, () => inner[0]), 'too many items'));
    } else if (inner && typeof inner === 'object') {
      for (const site of mutationSites(field, components, inner, at(key))) {
        sites.push((junk) => {
          const m = site(junk);
          return { ...m, body: rebuild((c) => void (c[key] = m.body)) };
        });
      }
    }
  }
  return sites;
}
