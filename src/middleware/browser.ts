// What browsers are told (§13). CORS: an Origin listed in CORS_ALLOWED_ORIGINS may call the API
// with a key and read the answer; the public reads (the gig board, /openapi.json) answer `*` to
// everyone; any other origin gets no Access-Control-Allow-Origin, so its page cannot read a thing.
// Every answer says nosniff and no-referrer, and a JSON answer to a key or the admin token is
// never stored by a cache (an intermediary would otherwise keep one caller's records).
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';
import { config } from '../config';
import type { AppEnv } from '../env';

const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'X-D1-Bookmark'];
const EXPOSED_HEADERS = [
  'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Location', 'Idempotent-Replayed', 'X-D1-Bookmark',
];

/** Reads anyone may make from any page: no key, nothing private in them. */
export const isPublicRead = (c: Context) => c.req.method !== 'POST' && c.req.method !== 'PATCH' && c.req.method !== 'DELETE' && (/^\/v1\/gigs(\/[^/]+)?$/.test(c.req.path) || c.req.path === '/openapi.json');

const corsPolicy = cors({
  origin: (origin, c: Context<AppEnv>) => {
    if (isPublicRead(c)) return '*';
    return config(c.env).CORS_ALLOWED_ORIGINS.includes(origin) ? origin : null;
  },
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ALLOWED_HEADERS,
  exposeHeaders: EXPOSED_HEADERS,
  maxAge: 600,
});

export const browserPolicy: MiddlewareHandler<AppEnv> = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.header('Origin') === undefined) {
    // Not a browser's cross-origin request: no CORS to negotiate. The public reads still say `*`,
    // since a shared cache may hand this very answer to a browser later.
    await next();
    if (isPublicRead(c)) c.res.headers.set('Access-Control-Allow-Origin', '*');
  } else {
    // A preflight is answered by the CORS policy itself, without running the route.
    const preflight = await corsPolicy(c, next);
    if (preflight) c.res = preflight;
    // The answer depends on the Origin sent (hono/cors says so only on preflights).
    if (c.res.headers.get('Access-Control-Allow-Origin') !== '*') c.res.headers.append('Vary', 'Origin');
  }
  if (c.req.header('Authorization') && !c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
});

export const securityHeaders = secureHeaders({
  xContentTypeOptions: 'nosniff',
  referrerPolicy: 'no-referrer',
  xFrameOptions: 'DENY',
  // No page of another site may embed an answer (CORS reads from allowed origins are unaffected).
  crossOriginResourcePolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin',
  strictTransportSecurity: 'max-age=31536000; includeSubDomains',
  xXssProtection: false,
  removePoweredBy: true,
});
