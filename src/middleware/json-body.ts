// Reads a request body once, for every route that is not a GET (defineRoute puts it after the
// access checks): over 100 KB → 413, a body that is not declared JSON
// → 415, JSON that does not parse → 400 (text that parses but is not text, a lone surrogate, is
// the body validator's 422: see lib/validation.ts). The text read is kept in Hono's body cache (an
// empty body becomes a request with `{}`), so the validators read it through the ordinary
// c.req.json(), as they would the original.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { readAtMost } from '../lib/bounded-read';

export const MAX_BODY_BYTES = 100 * 1024;
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

const tooLarge = () => new ApiError('payload_too_large', `The body is over ${MAX_BODY_BYTES / 1024} KB.`);

export const readJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();

  const declaredLength = Number(c.req.header('Content-Length') ?? '0');
  if (declaredLength > MAX_BODY_BYTES) throw tooLarge();

  const bytes = await readAtMost(c.req.raw.body, MAX_BODY_BYTES);
  if (bytes === null) throw tooLarge();

  if (bytes.length === 0) {
    // No body: the route reads `{}`, as JSON, from a request that carries it, so that the media type
    // check of a route with a body schema (@hono/zod-openapi's) finds a JSON body too.
    const headers = new Headers(c.req.raw.headers);
    headers.set('Content-Type', 'application/json');
    c.req.raw = new Request(c.req.raw, { body: '{}', headers });
    return next();
  }
  const mediaType = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', 'The body is not valid JSON.');
  }
  // The original stream is spent. What was read is Hono's cached body, which c.req.json() and
  // c.req.text() answer from (the body validator, the Idempotency-Key's fingerprint). (Hono keeps
  // each body read as its promise, whatever the field's declared type says.)
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
  await next();
});
