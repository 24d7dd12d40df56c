// JSON Schemas an MCP client can use on their own, made from the OpenAPI document's: every
// `$ref` written out in place (a tool's schema is read without the document around it), OpenAPI's
// `example` as JSON Schema's `examples`, and an object's `allOf` parts merged into one object, so the
// path parameters, the query and the body can stand side by side in one input schema.

type Json = Record<string, unknown>;
export type JsonSchema = Json;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a local reference (`#/components/schemas/Invoice`) points to in `document`. */
export function resolvePointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are followed: ${ref}`);
  let target: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
    target = isObject(target) ? target[key] : undefined;
  }
  if (target === undefined) throw new Error(`Unresolved reference: ${ref}`);
  return target;
}

/** `value` with each `$ref` replaced by what it points to (its sibling keywords kept over it). The document has no cycles. */
export function inlined(document: Json, value: unknown, depth = 0): any {
  if (depth > 64) throw new Error('References nest deeper than 64: a cycle?');
  if (Array.isArray(value)) return value.map((item) => inlined(document, item, depth + 1));
  if (!isObject(value)) return value;
  const out: Json = {};
  if (typeof value.$ref === 'string') Object.assign(out, inlined(document, resolvePointer(document, value.$ref), depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref') continue;
    if (key === 'example') out.examples = [item];
    else out[key] = inlined(document, item, depth + 1);
  }
  return out;
}

export type FlatObject = { properties: Record<string, JsonSchema>; required: string[]; closed: boolean; alternatives: Json };

/**
 * An inlined object schema as one set of properties: its own and those of its `allOf` parts, the
 * union of what they require, and whether it admits no other property (`additionalProperties` or
 * `unevaluatedProperties` false). `anyOf`/`oneOf` on the object are handed back to be kept beside.
 */
export function flatObject(schema: JsonSchema): FlatObject {
  const flat: FlatObject = { properties: {}, required: [], closed: false, alternatives: {} };
  const visit = (part: JsonSchema) => {
    for (const inner of (part.allOf as JsonSchema[] | undefined) ?? []) visit(inner);
    Object.assign(flat.properties, (part.properties as Record<string, JsonSchema> | undefined) ?? {});
    flat.required.push(...((part.required as string[] | undefined) ?? []));
    if (part.additionalProperties === false || part.unevaluatedProperties === false) flat.closed = true;
    for (const key of ['anyOf', 'oneOf'] as const) if (part[key]) flat.alternatives[key] = part[key];
  };
  visit(schema);
  flat.required = [...new Set(flat.required)];
  return flat;
}

/**
 * An answer's schema as MCP wants an output schema: an object, `type: "object"` said outright. An
 * answer that is a list is structured content `{data: [...]}` (results.ts), and its schema says so.
 */
export function asObjectSchema(schema: JsonSchema): JsonSchema {
  if (schema.type === 'array') return { type: 'object', properties: { data: schema }, required: ['data'] };
  return schema.type === 'object' ? schema : { type: 'object', ...schema };
}
