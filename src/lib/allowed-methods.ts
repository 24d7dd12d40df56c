// Which methods a path is served with, read from the app's own route table, so that a known path
// asked with another method can answer 405 with `Allow` instead of 404 (§1).
type RouteEntry = { method: string; path: string };

const SERVED = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Compiles the routes once; the returned function answers the methods for a concrete path. */
export function allowedMethodsOf(routes: readonly RouteEntry[]): (path: string) => string[] {
  const patterns = routes
    .filter((r) => SERVED.has(r.method))
    .map((r) => ({
      method: r.method,
      // Hono paths: `/v1/clients/:id` (a segment), maybe with a `{regex}` we do not need to honour here.
      regex: new RegExp(`^${r.path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/:\w+(\{[^}]*\})?/g, '[^/]+')}/?$`),
    }));
  return (path) => {
    const methods = new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
