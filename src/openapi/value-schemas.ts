// The value shapes most fields take are written once, in components.schemas, and referenced: an id
// of each kind (`InvoiceId`: its pattern and an example), a timestamp (`DateTime`), a calendar date
// (`CalendarDate`, with the range every date field takes), an email address and the two
// kinds of text (`OneLineText`, `MultiLineText`: the pattern that refuses control characters and
// bidirectional overrides). Written in place, they were some 12 KB of /openapi.json over a few
// hundred fields. A field keeps what is its own beside the reference (its length limits, its
// description), which JSON Schema 2020-12 applies with the component; a nullable field is
// `anyOf: [the component, null]`, which generated clients type as `InvoiceId | null`.
// Parameters refer to them too: a path's id, a filter by client or a date range.
import { ID_PREFIXES } from '../lib/ids';
import { DATE_RANGE_TEXT } from '../lib/schemas';

type Json = Record<string, unknown>;
type Doc = { paths?: Record<string, unknown>; webhooks?: Record<string, unknown>; components?: Record<string, Record<string, unknown>> };

const KIND_OF_PREFIX = new Map<string, string>(Object.entries(ID_PREFIXES).map(([kind, prefix]) => [prefix, kind]));
/** `invoice` → `InvoiceId`. */
const idName = (kind: string) => `${kind[0]!.toUpperCase()}${kind.slice(1)}Id`;
const SCHEMA_REF = '#/components/schemas/';
const ID_PATTERN = /^\^([a-z]+)_\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/;

type Shape = { name: string; keywords: string[]; description?: string };

// The shapes other than ids, each with what tells a schema is one (its format, or its pattern's start).
const SHAPES: (Shape & { is: (schema: Json, pattern?: string) => boolean })[] = [
  { name: 'DateTime', keywords: ['type', 'format', 'example'], is: (schema) => schema.format === 'date-time' },
  { name: 'CalendarDate', keywords: ['type', 'format', 'example'], description: DATE_RANGE_TEXT, is: (schema) => schema.format === 'date' },
  { name: 'Email', keywords: ['type', 'maxLength', 'format', 'example'], is: (schema) => schema.format === 'email' },
  { name: 'OneLineText', keywords: ['type', 'pattern'], is: (_, pattern) => !!pattern?.startsWith('^[^\\u0000-\\u001f') },
  { name: 'MultiLineText', keywords: ['type', 'pattern'], is: (_, pattern) => !!pattern?.startsWith('^[^\\u0000-\\u0008') },
];

/** The component a string schema is an instance of, with the keywords the component holds (and a description a field need not repeat). */
function valueShape(schema: Json): Shape | undefined {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const kind = pattern ? KIND_OF_PREFIX.get(pattern.match(ID_PATTERN)?.[1] ?? '') : undefined;
  if (kind) return { name: idName(kind), keywords: ['type', 'pattern', 'example'] };
  return SHAPES.find((shape) => shape.is(schema, pattern));
}

const isStringType = (type: unknown) => type === 'string' || (Array.isArray(type) && type.length === 2 && type[0] === 'string' && type[1] === 'null');

/** `schema` as a reference to its value component (made on first use), or undefined when it is none or differs from it. */
function asReference(schema: Json, schemas: Record<string, unknown>): Json | undefined {
  if (schema.$ref || !isStringType(schema.type)) return undefined;
  const shape = valueShape(schema);
  if (!shape) return undefined;
  const component = {
    ...Object.fromEntries(shape.keywords.filter((key) => key in schema).map((key) => [key, key === 'type' ? 'string' : schema[key]])),
    ...(shape.description ? { description: shape.description } : {}),
  };
  schemas[shape.name] ??= component;
  // A field with its own example (or a component name already taken by another schema) stays as it is.
  if (JSON.stringify(schemas[shape.name]) !== JSON.stringify(component)) return undefined;
  const own = Object.fromEntries(Object.entries(schema).filter(([key, value]) => !shape.keywords.includes(key) && !(key === 'description' && value === shape.description)));
  const ref = { $ref: `${SCHEMA_REF}${shape.name}` };
  return Array.isArray(schema.type) ? { anyOf: [ref, { type: 'null' }], ...own } : { ...ref, ...own };
}

function referenceValues(value: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => referenceValues(item, schemas));
  if (!value || typeof value !== 'object') return value;
  const ref = asReference(value as Json, schemas);
  if (ref) return ref;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, referenceValues(inner, schemas)]));
}

export function withSharedValueSchemas<T extends object>(document: T): T {
  const doc = document as Doc;
  const schemas = ((doc.components ??= {}).schemas ??= {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) schemas[name] = referenceValues(schemas[name], schemas);
  doc.paths = referenceValues(doc.paths, schemas) as Doc['paths'];
  doc.webhooks = referenceValues(doc.webhooks, schemas) as Doc['webhooks'];
  return document;
}

/** `{anyOf: [{$ref: X}, {type: null}]}` with the rest of the field's keywords, or undefined. */
function nullableReference(schema: Json): { name: string; rest: Json } | undefined {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || JSON.stringify(options[1]) !== '{"type":"null"}') return undefined;
  const ref = (options[0] as Json).$ref;
  if (typeof ref !== 'string' || Object.keys(options[0] as Json).length !== 1 || !ref.startsWith(SCHEMA_REF)) return undefined;
  const { anyOf: _, ...rest } = schema;
  return { name: ref.slice(SCHEMA_REF.length), rest };
}

function countNullable(value: unknown, counts: Map<string, number>) {
  if (Array.isArray(value)) value.forEach((item) => countNullable(item, counts));
  else if (value && typeof value === 'object') {
    const found = nullableReference(value as Json);
    if (found) counts.set(found.name, (counts.get(found.name) ?? 0) + 1);
    Object.values(value).forEach((inner) => countNullable(inner, counts));
  }
}

function referenceNullable(value: unknown, shared: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => referenceNullable(item, shared));
  if (!value || typeof value !== 'object') return value;
  const found = nullableReference(value as Json);
  if (found && shared.has(found.name)) return { $ref: `${SCHEMA_REF}${found.name}OrNull`, ...found.rest };
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, referenceNullable(inner, shared)]));
}

/**
 * A component many fields take or null (a text, a timestamp, a project id: `anyOf: [OneLineText, null]`)
 * is written once as `OneLineTextOrNull` and referenced, the field keeping its own keywords beside
 * the reference (`maxLength`). Generated clients type it `OneLineText | null` as before.
 */
export function withNullableValueSchemas<T extends object>(document: T): T {
  const doc = document as Doc;
  const schemas = ((doc.components ??= {}).schemas ??= {}) as Record<string, unknown>;
  const counts = new Map<string, number>();
  countNullable([doc.paths, doc.webhooks, schemas], counts);
  // Below three uses a named type and a reference save too little.
  const shared = new Set([...counts].filter(([name, count]) => count >= 3 && !schemas[`${name}OrNull`]).map(([name]) => name));
  for (const name of Object.keys(schemas)) schemas[name] = referenceNullable(schemas[name], shared);
  doc.paths = referenceNullable(doc.paths, shared) as Doc['paths'];
  doc.webhooks = referenceNullable(doc.webhooks, shared) as Doc['webhooks'];
  for (const name of shared) schemas[`${name}OrNull`] = { anyOf: [{ $ref: `${SCHEMA_REF}${name}` }, { type: 'null' }] };
  return document;
}

const VALUE_COMPONENTS = new Set([...[...KIND_OF_PREFIX.values()].map(idName), ...SHAPES.map((shape) => shape.name)]);
// The value shapes, and any of them or an enumeration `OrNull` (withNullableValueSchemas).
const isValueComponent = (name: string) => VALUE_COMPONENTS.has(name) || name.endsWith('OrNull');
function countReferences(value: unknown, counts: Map<string, number>) {
  if (Array.isArray(value)) value.forEach((item) => countReferences(item, counts));
  else if (value && typeof value === 'object') {
    const ref = (value as Json).$ref;
    const name = typeof ref === 'string' && ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : undefined;
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    Object.values(value).forEach((inner) => countReferences(inner, counts));
  }
}

function inPlace(value: unknown, once: Map<string, Json>): unknown {
  if (Array.isArray(value)) return value.map((item) => inPlace(item, once));
  if (!value || typeof value !== 'object') return value;
  const { $ref: ref, ...own } = value as Json;
  const component = typeof ref === 'string' && ref.startsWith(SCHEMA_REF) ? once.get(ref.slice(SCHEMA_REF.length)) : undefined;
  if (component) return { ...component, ...own };
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inPlace(inner, once)]));
}

/**
 * A value component the finished document refers to only once (the id of a refund, which only a
 * refund has) is written where it is used: a name and a reference would cost more than the schema.
 * Runs last, when request bodies and records have been shared and the counts are final.
 */
export function withValueSchemasUsedOnceInPlace<T extends object>(document: T): T {
  const doc = document as Doc;
  const schemas = doc.components?.schemas as Record<string, Json> | undefined;
  if (!schemas) return document;
  const counts = new Map<string, number>();
  countReferences(doc, counts);
  const once = new Map(Object.keys(schemas).filter((name) => isValueComponent(name) && counts.get(name) === 1).map((name) => [name, schemas[name]!]));
  if (!once.size) return document;
  // One used once only by another used once (a `XOrNull` and its X) goes in place inside it first.
  for (const [name, schema] of once) once.set(name, inPlace(schema, once) as Json);
  for (const name of once.keys()) delete schemas[name];
  for (const name of Object.keys(schemas)) schemas[name] = inPlace(schemas[name], once) as Json;
  doc.paths = inPlace(doc.paths, once) as Doc['paths'];
  doc.webhooks = inPlace(doc.webhooks, once) as Doc['webhooks'];
  if (doc.components?.parameters) doc.components.parameters = inPlace(doc.components.parameters, once) as Record<string, unknown>;
  return document;
}
