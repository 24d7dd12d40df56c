// A part of an `allOf` beside a reference to an object component (a list's `Page`, a record's
// summary, the events of a kind) adds properties to that object: its `"type": "object"` says what
// the referenced component says already, and some forty of them were 700 bytes of /openapi.json.
// Both generators read a part with `properties` and no `type` as an object (the webhook payloads
// were written so from the start).

type Json = Record<string, unknown>;
type Doc = { paths?: unknown; webhooks?: unknown; components?: { schemas?: Record<string, unknown> } };

const SCHEMA_REF = '#/components/schemas/';

function withoutRestatedTypes(value: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutRestatedTypes(item, schemas));
  if (!value || typeof value !== 'object') return value;
  const schema = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withoutRestatedTypes(inner, schemas)])) as Json;
  const parts = schema.allOf;
  if (!Array.isArray(parts)) return schema;
  const isObjectComponent = (part: Json) => typeof part.$ref === 'string' && part.$ref.startsWith(SCHEMA_REF) && (schemas[part.$ref.slice(SCHEMA_REF.length)] as Json | undefined)?.type === 'object';
  if (!parts.some((part) => isObjectComponent(part as Json))) return schema;
  schema.allOf = parts.map((part) => {
    const { type, ...rest } = part as Json;
    return type === 'object' && rest.properties ? rest : part;
  });
  return schema;
}

export function withoutRestatedObjectTypes<T extends object>(document: T): T {
  const doc = document as Doc;
  const schemas = doc.components?.schemas ?? {};
  // Decided against the components as they are before any part changes.
  const before = structuredClone(schemas);
  for (const name of Object.keys(schemas)) schemas[name] = withoutRestatedTypes(schemas[name], before);
  doc.paths = withoutRestatedTypes(doc.paths, before);
  doc.webhooks = withoutRestatedTypes(doc.webhooks, before);
  return document;
}
