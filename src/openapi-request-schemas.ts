// A property schema several request bodies take alike (a document `discount` on invoices, quotes
// and recurring invoices, create and update alike; an `address`; the `events` a webhook endpoint
// listens to) is written once, in components.schemas, and referenced from each body. Only a schema
// with no `default` anywhere in it moves: openapi-typescript makes a defaulted property required in
// a named component (openapi-request-bodies.ts), and the request bodies are written out in place
// so that it does not. A schema equal to a component the document already has is referenced too.

type Json = Record<string, unknown>;
type Doc = { paths?: Record<string, Record<string, Json>>; components?: Record<string, Record<string, unknown>> };

/** Below this a reference saves too little to be worth one more named type in generated clients. */
const SMALLEST = 400;

/** Each property schema in `value` with where it sits and the name of the property. */
function propertySchemas(value: unknown, found: { holder: Json; key: string; name: string }[] = []) {
  if (Array.isArray(value)) value.forEach((item) => propertySchemas(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'properties' && inner && typeof inner === 'object') {
        for (const [name, schema] of Object.entries(inner)) {
          found.push({ holder: inner as Json, key: name, name });
          propertySchemas(schema, found);
        }
      } else propertySchemas(inner, found);
    }
  }
  return found;
}

/** `line_items` → `LineItems`. */
const pascal = (name: string) => name.split(/[^A-Za-z0-9]+/).map((part) => part[0]!.toUpperCase() + part.slice(1)).join('');

/** The request bodies' schemas: those in components.requestBodies and those still in place. */
function requestSchemas(doc: Doc): unknown[] {
  const inPlace = Object.values(doc.paths ?? {})
    .flatMap((item) => Object.values(item))
    .filter((operation) => operation && typeof operation === 'object' && operation.requestBody && !(operation.requestBody as Json).$ref)
    .map((operation) => operation.requestBody);
  return [...Object.values(doc.components?.requestBodies ?? {}), ...inPlace];
}

export function withSharedRequestSchemas<T extends object>(document: T): T {
  const doc = document as Doc;
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const byText = new Map(Object.entries(schemas).map(([name, schema]) => [JSON.stringify(schema), name]));
  const unnamed = new Set<string>();
  // Largest first: a schema that moves takes the smaller ones inside it along.
  for (;;) {
    const uses = new Map<string, { holder: Json; key: string; name: string }[]>();
    for (const use of propertySchemas(requestSchemas(doc))) {
      const text = JSON.stringify(use.holder[use.key]);
      if (text.length < SMALLEST || text.includes('"default":') || text.startsWith('{"$ref"') || unnamed.has(text)) continue;
      uses.set(text, [...(uses.get(text) ?? []), use]);
    }
    const candidates = [...uses].filter(([text, list]) => list.length > 1 || byText.has(text)).sort(([a], [b]) => b.length - a.length);
    const next = candidates[0];
    if (!next) return document;
    const [text, list] = next;
    let name = byText.get(text);
    if (!name) {
      const base = pascal(list[0]!.name);
      name = schemas[base] ? `${base}Input` : base;
      // Two different schemas under one property name: the second stays in place.
      if (schemas[name]) {
        unnamed.add(text);
        continue;
      }
      schemas[name] = JSON.parse(text);
      byText.set(text, name);
    }
    for (const use of list) use.holder[use.key] = { $ref: `#/components/schemas/${name}` };
  }
}
