// The route table, read from /openapi.json: what the isolation matrix and the fuzzer walk, so a
// route added later is covered without anyone remembering to add it here.
import { call } from './api';

export type Route = {
  method: string;
  path: string;
  operation: {
    security?: unknown[];
    parameters?: { name: string; in: string; schema?: { pattern?: string; enum?: string[] } }[];
    requestBody?: { content: { 'application/json': { schema: Record<string, unknown> } } };
    responses: Record<string, unknown>;
  };
};

export async function routeTable(): Promise<{ routes: Route[]; doc: any }> {
  const doc = (await call('GET', '/openapi.json')).body;
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, Route['operation']>>)) {
    for (const [method, operation] of Object.entries(operations)) routes.push({ method: method.toUpperCase(), path, operation });
  }
  return { routes, doc };
}

export const isPublic = (route: Route) => Array.isArray(route.operation.security) && route.operation.security.length === 0;
export const isAdmin = (route: Route) => JSON.stringify(route.operation.security ?? []).includes('AdminToken');

/** The id prefix a path's {id} takes (cli, prj, …), read from the parameter's pattern. */
export function idPrefix(route: Route): string | null {
  const param = route.operation.parameters?.find((p) => p.in === 'path' && p.name === 'id');
  return param?.schema?.pattern?.match(/^\^([a-z]+)_/)?.[1] ?? null;
}

export const fill = (path: string, id: string) => path.replace('{id}', id);
