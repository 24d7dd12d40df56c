// Reads a request body once, for every route that is not a GET (defineRoute puts it after the
// access checks): over 100 KB → 413, a body that is not declared JSON
// → 415, JSON that does not parse → 400. The request then carries the bytes read (an empty body
// becomes `{}`), so the validators read it through the ordinary c.req.json(), as they would the
// original.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError, invalidField } from '../errors';

export const MAX_BODY_BYTES = 100 * 1024;
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

const tooLarge = () => new ApiError('payload_too_large', `The body is over ${MAX_BODY_BYTES / 1024} KB.`);

export const readJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();

  const declaredLength = Number(c.req.header('Content-Length') ?? '0');
  if (declaredLength > MAX_BODY_BYTES) throw tooLarge();

  const bytes = c.req.raw.body ? await readAtMost(c.req.raw.body, MAX_BODY_BYTES) : new Uint8Array();
  if (bytes === null) throw tooLarge();

  if (bytes.length > 0) {
    const mediaType = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim();
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
    } catch {
      throw new ApiError('invalid_json', 'The body is not valid JSON.');
    }
    const corrupt = loneSurrogatePath(parsed);
    if (corrupt !== null) {
      throw invalidField(corrupt || 'body', 'Contains a lone surrogate (\\uD800–\\uDFFF without its pair): not a character, and it cannot be stored.');
    }
  }
  // The original stream is spent; hand on what was read (as hono/body-limit replaces the request too).
  const headers = new Headers(c.req.raw.headers);
  if (bytes.length === 0) headers.set('Content-Type', 'application/json');
  c.req.raw = new Request(c.req.raw, { body: bytes.length > 0 ? bytes : '{}', headers });
  await next();
});

/** The whole stream, or null as soon as it passes `limit` bytes (a chunked body has no Content-Length). */
async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

// In Unicode mode, a surrogate that is half of a pair is part of one code point; only a lone one
// is in the category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The path (`line_items.0.description`) of a string, or key, holding a lone surrogate; null when
 * there is none. UTF-8 cannot carry one, but a JSON escape (`"\\ud800"`) can, and D1 would store
 * it as U+FFFD: the text would silently not be what was sent, in any field. Walked with a stack of
 * its own, since a 100 KB body can nest deeper than the call stack goes.
 */
export function loneSurrogatePath(body: unknown): string | null {
  const pending: [unknown, string][] = [[body, '']];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (pending.length) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], at(path, i)]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        if (LONE_SURROGATE.test(key)) return at(path, key.replace(/\p{Cs}/gu, '\uFFFD'));
      }
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i]![1], at(path, entries[i]![0])]);
    }
  }
  return null;
}
