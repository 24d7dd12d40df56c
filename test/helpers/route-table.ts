// The route table, read from /openapi.json: what the isolation matrix and the fuzzer walk, so a
// route added later is covered without anyone remembering to add it here.
import { referencedPath } from '../../src/openapi/listings';
import { call } from './api';

export type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Record<string, any> };

export type Route = {
  method: string;
  path: string;
  /** The /v1 path whose operation this /api/workflow path serves too (the same router), if any. */
  twin?: string;
  operation: {
    operationId?: string;
    description?: string;
    /** The role the operation needs: public, operator, any, viewer, member, admin or owner. */
    'x-required-role'?: string;
    security?: unknown[];
    parameters?: Parameter[];
    requestBody?: { content: { 'application/json': { schema: Record<string, unknown> } } };
    responses: Record<string, any>;
  };
};

export async function routeTable(): Promise<{ routes: Route[]; doc: any }> {
  const doc = (await call('GET', '/openapi.json')).body;
  const routes: Route[] = [];
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(paths)) {
    // An /api/workflow path item that refers to its /v1 twin: the same operations, under this path too.
    const twin = referencedPath(item);
    const written = paths[twin ?? path] ?? item;
    const pathIds = (written.parameters ?? []) as Parameter[];
    for (const [method, operation] of Object.entries(written) as [string, Route['operation']][]) {
      if (method === 'parameters') continue;
      // Parameters every operation shares (Idempotency-Key) are references to components.parameters,
      // the path's ids are declared on the path item, and bodies several operations take alike are
      // in components.requestBodies.
      const all = [...pathIds, ...(operation.parameters ?? [])];
      const parameters = all.length ? all.map((p) => withSchema('$ref' in p ? doc.components.parameters[String(p.$ref).split('/').pop()!] : p, doc)) : undefined;
      const body = operation.requestBody as { $ref?: string } | undefined;
      const requestBody = body?.$ref ? doc.components.requestBodies[body.$ref.split('/').pop()!] : body;
      routes.push({ method: method.toUpperCase(), path, ...(twin ? { twin } : {}), operation: { ...operation, ...(parameters ? { parameters } : {}), ...(requestBody ? { requestBody } : {}) } });
    }
  }
  return { routes, doc };
}

/** The parameter with its schema written out: an id's or a date's is a reference to its value component (`ClientId`). */
function withSchema(param: Parameter, doc: any): Parameter {
  const ref = param.schema?.$ref as string | undefined;
  if (!ref) return param;
  const { $ref: _, ...own } = param.schema!;
  return { ...param, schema: { ...doc.components.schemas[ref.split('/').pop()!], ...own } };
}

export const label = (route: Route) => `${route.method} ${route.path}`;
export const isPublic = (route: Route) => Array.isArray(route.operation.security) && route.operation.security.length === 0;
export const isAdmin = (route: Route) => JSON.stringify(route.operation.security ?? []).includes('AdminToken');
export const parametersIn = (route: Route, where: Parameter['in']) => (route.operation.parameters ?? []).filter((p) => p.in === where);
export const takesId = (route: Route) => parametersIn(route, 'path').length > 0;

/** The id prefix (cli, prj, …) a parameter takes, read from its pattern; null for free text. */
export const paramPrefix = (param: Parameter): string | null => param.schema?.pattern?.match(/^\^([a-z]+)_/)?.[1] ?? null;

/**
 * The id prefix of the record the route acts on (its last path parameter). A path parameter
 * without an id pattern is reported as "?name", which no factory has, so it fails loudly.
 */
export function idPrefix(route: Route): string | null {
  const last = parametersIn(route, 'path').at(-1);
  return last ? (paramPrefix(last) ?? `?${last.name}`) : null;
}

// Lone surrogates cannot be URL-encoded; they are sent as U+FFFD, as a browser would.
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * The parameters of a path to a record that lives under another (a payment under its invoice:
 * `{id}` is the invoice's, `{payment_id}` the payment's), by the record's id; factories register them.
 */
export const nestedPathValues = new Map<string, Record<string, string>>();

/** The path with its template parameters filled in (one value for all, or by name), URL-encoded. */
export function fill(path: string, given: Record<string, string> | string): string {
  // A record that lives under another (a proposal under its gig) is still its own path's one parameter
  // (/v1/proposals/{id}): its nested values fill only the paths that name both.
  const nested = typeof given === 'string' && (path.match(/\{\w+\}/g)?.length ?? 0) > 1 ? nestedPathValues.get(given) : undefined;
  const values = nested ?? given;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(wellFormed(typeof values === 'string' ? values : (values[name] ?? ''))));
}

/** The success statuses (2xx) the operation documents. */
export const successStatuses = (route: Route) => Object.keys(route.operation.responses).filter((s) => /^2\d\d$/.test(s)).map(Number);

/** The operation that reads one record of the kind a route acts on: GET on the path up to its id. */
export function readRouteFor(route: Route, routes: Route[]): Route | undefined {
  const itemPath = route.path.slice(0, route.path.lastIndexOf('}') + 1);
  return routes.find((r) => r.method === 'GET' && r.path === itemPath);
}
