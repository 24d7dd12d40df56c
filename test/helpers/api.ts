// Requests through the real worker (its default export's fetch), as a client would send them.
//
// The request goes straight to the worker module's fetch handler with the test bindings, and
// waitUntil work is awaited before the answer is returned. Not through `exports.default.fetch`:
// in @cloudflare/vitest-pool-workers each such call costs more than the one before (workers-sdk
// #15446; measured here: 2 ms per request at first, 55 ms after 500), which made a file of a few
// thousand requests take minutes. Called directly, the same handler stays at a fraction of a ms.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import worker from '../../src/index';
import { checkAgainstDocument, primeContract } from './contract';

export const ADMIN_TOKEN = 'test-admin-token';

export type CallOptions = {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
};

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T };

/** Requests sent with each key in this test file, for tests that must stay under the rate limit. */
export const requestsPerKey = new Map<string, number>();

/**
 * A client address of its own for each request, as Cloudflare's edge sets `CF-Connecting-IP`, so
 * the per-address limits of public routes count only the requests of a test that names one.
 */
// (An IPv6 client counts by its /64, so the random part is the /64's.)
const someAddress = () => `2001:db8:${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}::1`;

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'CF-Connecting-IP': someAddress(), ...options.headers };
  if (options.key) {
    headers.Authorization = `Bearer ${options.key}`;
    requestsPerKey.set(options.key, (requestsPerKey.get(options.key) ?? 0) + 1);
  }
  let body: BodyInit | undefined;
  if (options.body instanceof Uint8Array || options.body instanceof FormData) {
    // A file as the body, or a form (whose Content-Type, with its boundary, the request sets).
    body = options.body;
  } else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const url = `https://workspace.test${path}`;
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, { method, headers, body }), env, ctx);
  await waitOnExecutionContext(ctx);
  // Decoded as .text() would, without the runtime's warning for every PDF read that way.
  const text = new TextDecoder().decode(await res.arrayBuffer());
  let parsed: unknown = text;
  if (text && res.headers.get('Content-Type')?.includes('application/json')) parsed = JSON.parse(text);
  await primeContract();
  await checkAgainstDocument(method, url, res.status, res.headers.get('Content-Type'), parsed, res.headers);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/**
 * A page, file, form or webhook at an absolute URL of the worker, as a browser or a provider sends
 * it: no key, no contract check, a client address of its own unless `init` names one.
 */
export async function open(url: string, init: RequestInit = {}, bindings: Env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = { 'CF-Connecting-IP': someAddress(), ...(init.headers as Record<string, string> | undefined) };
  const res = await worker.fetch(new Request(url, { ...init, headers }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Asserts the one error envelope with the given status and code; returns the error for more checks. */
export function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.request_id).toBe(res.headers.get('X-Request-Id'));
  return res.body.error as { code: string; message: string; request_id: string; details?: { path: string; message: string }[] };
}

/** The paths named in a 422's details. */
export function errorPaths(res: ApiResponse): string[] {
  return (res.body?.error?.details ?? []).map((d: { path: string }) => d.path);
}
