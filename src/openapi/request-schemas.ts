// A property schema several request bodies take alike (a document `discount` on invoices, quotes
// and recurring invoices, create and update alike; an `address`; the `events` a webhook endpoint
// listens to; the line items of invoices, quotes and recurring invoices) is written once, in
// components.schemas, and referenced from each body. openapi-typescript makes a property with a
// `default` required in a named component (request-bodies.ts), so a schema that moves says
// its defaults in words instead ("Defaults to 0."; the server applies them all the same) and
// generated clients keep those fields optional. A schema equal to a component the document
// already has is referenced too.

type Json = Record<string, unknown>;
type Doc = { paths?: Record<string, Record<string, Json>>; components?: Record<string, Record<string, unknown>> };

/** Below this a reference saves too little to be worth one more named type in generated clients. */
const SMALLEST = 400;

type Use = { holder: Json; key: string; name: string };

/** Each property schema in `value`, and the items of an array property, with where it sits and a name for it. */
function propertySchemas(value: unknown, found: Use[] = [], within = ''): Use[] {
  if (Array.isArray(value)) value.forEach((item) => propertySchemas(item, found, within));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'properties' && inner && typeof inner === 'object') {
        for (const [name, schema] of Object.entries(inner)) {
          found.push({ holder: inner as Json, key: name, name });
          propertySchemas(schema, found, name);
        }
      } else if (key === 'items' && within && inner && typeof inner === 'object' && !Array.isArray(inner)) {
        // `line_items` takes line items: the items are named after the property, in the singular.
        found.push({ holder: value as Json, key, name: within.replace(/s$/, '') });
        propertySchemas(inner, found);
      } else propertySchemas(inner, found);
    }
  }
  return found;
}

/**
 * The schema with each property's `default` said in its description instead ("Defaults to 0."),
 * unless the description says the default already. Only properties: a default elsewhere stays, and
 * keeps the schema in place.
 */
function defaultsInWords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsInWords);
  if (!schema || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema).map(([key, inner]) => {
    if (key !== 'properties' || !inner || typeof inner !== 'object') return [key, defaultsInWords(inner)];
    return [key, Object.fromEntries(Object.entries(inner).map(([name, property]) => [name, withDefaultInWords(defaultsInWords(property) as Json)]))];
  });
  return Object.fromEntries(entries);
}

function withDefaultInWords(property: Json): Json {
  if (!property || typeof property !== 'object' || !('default' in property)) return property;
  const { default: value, ...rest } = property;
  const said = typeof rest.description === 'string' && /default/i.test(rest.description);
  const words = `Defaults to ${typeof value === 'string' ? `\`${value}\`` : JSON.stringify(value)}.`;
  return said ? rest : { ...rest, description: [rest.description, words].filter(Boolean).join(' ') };
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
  const made: { schema: Json; name: string }[] = [];
  // Largest first: a schema that moves takes the smaller ones inside it along, and what it holds can
  // still be shared with the bodies that did not move (the line items of a list that did).
  for (;;) {
    // Alike as written (a default said in words is not the same as none), moved as said in words.
    const uses = new Map<string, { text: string; list: Use[] }>();
    const found = propertySchemas(requestSchemas(doc));
    for (const component of made) propertySchemas(component.schema, found, component.name);
    for (const use of found) {
      const written = JSON.stringify(use.holder[use.key]);
      const text = JSON.stringify(defaultsInWords(use.holder[use.key]));
      if (text.length < SMALLEST || text.includes('"default":') || text.startsWith('{"$ref"') || unnamed.has(text)) continue;
      uses.set(written, { text, list: [...(uses.get(written)?.list ?? []), use] });
    }
    // The items of a list that moved are named too: a line item is what a caller builds the list from.
    const itemsOfMade = (use: Use) => use.key === 'items' && (use.holder.items as Json).type === 'object' && made.some((component) => component.schema === use.holder);
    const candidates = [...uses.values()].filter(({ text, list }) => list.length > 1 || byText.has(text) || list.some(itemsOfMade)).sort((a, b) => b.text.length - a.text.length);
    const next = candidates[0];
    if (!next) return document;
    const { text, list } = next;
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
      made.push({ schema: schemas[name] as Json, name: list[0]!.name });
      byText.set(text, name);
    }
    for (const use of list) use.holder[use.key] = { $ref: `#/components/schemas/${name}` };
  }
}
