// What browsers are told (§13): CORS for the origins in CORS_ALLOWED_ORIGINS and `*` on the public
// reads, security headers on every answer, and no caching of anything answered to a key.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { call } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';

const ALLOWED = 'https://app.studio.example';
const OTHER = 'https://evil.example';

/** A request through the worker with CORS_ALLOWED_ORIGINS set, as a browser on `origin` sends it. */
async function fromBrowser(method: string, path: string, origin: string, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`https://workspace.test${path}`, { method, headers: { Origin: origin, ...headers } }),
    { ...env, CORS_ALLOWED_ORIGINS: `${ALLOWED}, https://other-allowed.example` },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

describe('CORS', () => {
  it('lets an allowed origin call with a key and read the answer and its headers', async () => {
    const res = await fromBrowser('GET', '/v1/clients', ALLOWED, { Authorization: `Bearer ${user.key}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ALLOWED);
    expect(res.headers.get('Vary')).toContain('Origin');
    expect(res.headers.get('Access-Control-Expose-Headers')?.split(',')).toEqual(
      expect.arrayContaining(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Location', 'Idempotent-Replayed', 'X-D1-Bookmark']),
    );
  });

  it('answers an allowed preflight with 204, the methods and headers, and a 10-minute max age', async () => {
    const res = await fromBrowser('OPTIONS', '/v1/invoices', ALLOWED, { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key' });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ALLOWED);
    expect(res.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    expect(res.headers.get('Access-Control-Allow-Headers')?.split(',')).toEqual(['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'X-D1-Bookmark']);
    expect(res.headers.get('Access-Control-Max-Age')).toBe('600');
  });

  it('gives any other origin no Access-Control-Allow-Origin, so its page cannot read the answer', async () => {
    for (const method of ['GET', 'OPTIONS']) {
      const res = await fromBrowser(method, '/v1/clients', OTHER, { Authorization: `Bearer ${user.key}` });
      expect(res.headers.get('Access-Control-Allow-Origin'), method).toBeNull();
    }
  });

  it('answers the public reads with * to every origin, allowed ones too', async () => {
    for (const origin of [ALLOWED, OTHER]) {
      for (const path of ['/v1/gigs', '/v1/gigs/gig_01JA0000000000000000000000', '/openapi.json']) {
        expect((await fromBrowser('GET', path, origin)).headers.get('Access-Control-Allow-Origin'), `${path} from ${origin}`).toBe('*');
      }
    }
  });
});

describe('headers on every answer', () => {
  it('says nosniff and no-referrer on success, errors and pages', async () => {
    const answers = [
      await call('GET', '/health'),
      await call('GET', '/v1/clients', { key: user.key }),
      await call('GET', '/v1/clients'),
      await call('GET', '/nowhere'),
      await call('GET', '/docs'),
    ];
    for (const res of answers) {
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    }
  });

  it('serves /docs under a CSP that runs only its own scripts and cannot be framed', async () => {
    const csp = (await call('GET', '/docs')).headers.get('Content-Security-Policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect((await call('GET', '/docs/init.js')).body).toContain('persistAuthorization: false');
  });

  it('never lets a cache keep what was answered to a key, except the shared rates', async () => {
    expect((await call('GET', '/v1/clients', { key: user.key })).headers.get('Cache-Control')).toBe('no-store');
    expect((await call('GET', '/v1/clients/cli_01JA0000000000000000000000', { key: user.key })).headers.get('Cache-Control')).toBe('no-store');
    expect((await call('GET', '/api/admin/waitlist', { key: 'test-admin-token' })).headers.get('Cache-Control')).toBe('no-store');
  });
});
