// Request bodies written out in place in the document, for the clients generators make with their
// default settings (§8). openapi-typescript's default `defaultNonNullable` makes a property with a
// `default` required, except in a schema that stands under a `requestBody`: a body that only
// points (`$ref`) at a named component would make a caller send `tax_rate` that the server
// defaults. So every request body's schema is expanded from the components it points to, and the
// components only request bodies used are dropped from the document.

type Json = Record<string, unknown>;
type Doc = { paths?: Record<string, Record<string, Json>>; components?: { schemas?: Record<string, Json> } };

const COMPONENT = '#/components/schemas/';

/**
 * `schema` with every component reference replaced by a copy of the component (request schemas are
 * not recursive), with what the reference says beside it (a `default`, a description) kept.
 */
function expand(schema: unknown, components: Record<string, Json>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => expand(item, components, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref: ref, ...beside } = schema as Json;
  if (typeof ref === 'string' && ref.startsWith(COMPONENT)) {
    const name = ref.slice(COMPONENT.length);
    if (seen.includes(name)) return schema;
    return { ...(expand(components[name], components, [...seen, name]) as Json), ...beside };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, expand(value, components, seen)]));
}

/** The names of the components `value` points to, directly or through other components. */
function referencedComponents(value: unknown, components: Record<string, Json>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => referencedComponents(item, components, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT)) {
        const name = inner.slice(COMPONENT.length);
        if (!found.has(name)) {
          found.add(name);
          referencedComponents(components[name], components, found);
        }
      } else referencedComponents(inner, components, found);
    }
  }
  return found;
}

export function withInlineRequestBodies<T extends { paths?: unknown; components?: unknown }>(document: T): T {
  const doc = document as Doc;
  const components = doc.components?.schemas;
  if (!components) return document;
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const content = (operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
      for (const media of Object.values(content ?? {})) {
        if (media.schema) media.schema = expand(media.schema, components);
      }
    }
  }
  const stillUsed = referencedComponents({ paths: doc.paths, webhooks: (doc as Json).webhooks }, components);
  for (const name of Object.keys(components)) if (!stillUsed.has(name)) delete components[name];
  return document;
}
