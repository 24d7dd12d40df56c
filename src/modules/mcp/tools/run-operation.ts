// A tool call runs its operation through the app itself: the request an HTTP client would send,
// with the caller's own key, so the key check, the role, the rate limits, the validation and the
// records (events, idempotency) are the API's, with nothing re-implemented or skipped here.
import type { Operation } from './catalogue';

/** What the app is asked to do. */
export type OperationRequest = { method: string; path: string; query?: URLSearchParams; body?: unknown; idempotencyKey?: string };

/** The app's answer, read. */
export type Answer = { status: number; contentType: string; text: string; bytes?: Uint8Array };

/** Sends a request to the app as the caller. */
export type Runner = (request: OperationRequest) => Promise<Answer>;

/** What the app needs to hear from the caller's own request. */
export type CallerRequest = {
  fetch: (request: Request) => Promise<Response>;
  origin: string;
  authorization: string;
  requestId: string;
  address: string | undefined;
};

export function runnerFor(caller: CallerRequest): Runner {
  return async ({ method, path, query, body, idempotencyKey }) => {
    const headers: Record<string, string> = { Authorization: caller.authorization, 'X-Request-Id': caller.requestId };
    if (caller.address) headers['CF-Connecting-IP'] = caller.address;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    const search = query?.size ? `?${query}` : '';
    const res = await caller.fetch(new Request(`${caller.origin}${path}${search}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const contentType = res.headers.get('Content-Type') ?? '';
    if (/^(application\/json|text\/|application\/xml)/.test(contentType) || !res.body) return { status: res.status, contentType, text: await res.text() };
    return { status: res.status, contentType, text: '', bytes: new Uint8Array(await res.arrayBuffer()) };
  };
}

/** A query or path value as text; undefined for one a URL cannot carry (null). */
function asText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The request of `operation` for a tool call's arguments: path parameters into the path, query
 * parameters into the query, everything else into the body (where the operation takes one, and the
 * API refuses a field it does not know) or the query (where it does not, as an HTTP client would
 * send it). Answers the names of missing path parameters instead, for the caller to refuse.
 */
export function requestFor(operation: Operation, args: Record<string, unknown>): OperationRequest | { missing: string[] } {
  const missing = operation.pathParams.filter((name) => asText(args[name]) === undefined);
  if (missing.length) return { missing };
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(asText(args[name])!));
  const query = new URLSearchParams();
  const rest: Record<string, unknown> = {};
  const inPath = new Set(operation.pathParams);
  const inQuery = new Set(operation.queryParams);
  for (const [name, value] of Object.entries(args)) {
    if (inPath.has(name)) continue;
    if (inQuery.has(name) || !operation.hasBody) {
      for (const item of Array.isArray(value) ? value : [value]) {
        const text = asText(item);
        if (text !== undefined) query.append(name, text);
      }
    } else rest[name] = value;
  }
  return { method: operation.method, path, query, ...(operation.hasBody ? { body: rest } : {}) };
}
