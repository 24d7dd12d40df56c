// Reads a request body once, for every route that is not a GET (defineRoute puts it after the
// access checks): over 100 KB → 413, a body that is not declared JSON
// → 415, JSON that does not parse → 400 (text that parses but is not text, a lone surrogate, is
// the body validator's 422: see lib/validation.ts). The request then carries the bytes read (an empty body
// becomes `{}`), so the validators read it through the ordinary c.req.json(), as they would the
// original.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { readAtMost } from '../lib/bounded-read';

export const MAX_BODY_BYTES = 100 * 1024;
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

export const tooLarge = () => new ApiError('payload_too_large', `The body is over ${MAX_BODY_BYTES / 1024} KB.`);

/** 415 unless the request declares its body JSON (application/json, or a `+json` type). */
export function requireJsonMediaType(contentType: string | undefined, what = 'body'): void {
  if (!JSON_MEDIA_TYPE.test((contentType ?? '').split(';')[0]!.trim())) {
    throw new ApiError('unsupported_media_type', `Send the ${what} as JSON with Content-Type: application/json.`);
  }
}

export const readJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();

  const declaredLength = Number(c.req.header('Content-Length') ?? '0');
  if (declaredLength > MAX_BODY_BYTES) throw tooLarge();

  const bytes = await readAtMost(c.req.raw.body, MAX_BODY_BYTES);
  if (bytes === null) throw tooLarge();

  if (bytes.length > 0) {
    requireJsonMediaType(c.req.header('Content-Type'));
    try {
      JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
    } catch {
      throw new ApiError('invalid_json', 'The body is not valid JSON.');
    }
  }
  // The original stream is spent; hand on what was read (as hono/body-limit replaces the request too).
  const headers = new Headers(c.req.raw.headers);
  if (bytes.length === 0) headers.set('Content-Type', 'application/json');
  c.req.raw = new Request(c.req.raw, { body: bytes.length > 0 ? bytes : '{}', headers });
  await next();
});
