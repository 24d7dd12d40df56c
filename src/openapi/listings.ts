// The same routers serve /v1 and /api/workflow (clients, projects, invoices, …): each of those
// operations is one operation under two paths. The document writes it once, under its /v1 path, and
// the /api/workflow path item is a reference to it (`{"$ref": "#/paths/~1v1~1clients"}`), which
// OpenAPI 3.1 allows for a path item. Written twice, the copies took some 55 KB of /openapi.json.
// The operation keeps one operationId (`sendInvoice`) under both paths. The references come after
// every written path, so a generator that names operations in document order gives the plain name
// to the /v1 path (@hey-api/openapi-ts calls the /api/workflow one `sendInvoice2`).

const WORKFLOW = '/api/workflow/';

/** A JSON pointer to a path item, as a URI fragment (RFC 6901): `/v1/clients/{id}` → `#/paths/~1v1~1clients~1%7Bid%7D`. */
export const pathItemPointer = (path: string) => `#/paths/${encodeURIComponent(path.replaceAll('~', '~0').replaceAll('/', '~1'))}`;

/** The path a path item written as `{"$ref": "#/paths/…"}` points to, or undefined when it is written out. */
export function referencedPath(item: unknown): string | undefined {
  const ref = (item as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/paths/')) return undefined;
  return decodeURIComponent(ref.slice('#/paths/'.length)).replaceAll('~1', '/').replaceAll('~0', '~');
}

export function withSharedListings<T extends { paths?: unknown }>(document: T): T {
  const paths = (document.paths ?? {}) as Record<string, unknown>;
  const written: Record<string, unknown> = {};
  const references: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(paths)) {
    const twin = path.startsWith(WORKFLOW) ? `/v1/${path.slice(WORKFLOW.length)}` : undefined;
    // A copy that differs stays written out (and its duplicate operationIds fail the document's tests).
    if (twin && paths[twin] && JSON.stringify(paths[twin]) === JSON.stringify(item)) references[path] = { $ref: pathItemPointer(twin) };
    else written[path] = item;
  }
  document.paths = { ...written, ...references };
  return document;
}
