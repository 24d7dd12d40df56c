import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { onError } from '../../src/errors';
import { call, expectError } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { firstLimited } from '../helpers/rate-windows';

describe('the one error envelope', () => {
  it('answers unknown routes with 404', async () => {
    expectError(await call('GET', '/nowhere'), 404, 'not_found');
    expectError(await call('GET', '/api/workflow/nothing-here'), 404, 'not_found');
  });

  it('answers a known path asked with another method with 405 and Allow, before any key is checked', async () => {
    const put = await call('PUT', '/health');
    expectError(put, 405, 'method_not_allowed');
    expect(put.headers.get('Allow')).toBe('GET, HEAD');
    const noKey = await call('PUT', '/v1/clients/cli_01JA0000000000000000000000', { body: '{"broken' });
    expectError(noKey, 405, 'method_not_allowed');
    expect(noKey.headers.get('Allow')).toBe('DELETE, GET, HEAD, PATCH');
    expect((await call('DELETE', '/v1/clients')).headers.get('Allow')).toBe('GET, HEAD, POST');
  });

  it('checks the key before it reads the body', async () => {
    expectError(await call('POST', '/v1/clients', { body: '{"name": ' }), 401, 'unauthorized');
    expectError(await call('POST', '/v1/clients', { body: 'name=Acme', headers: { 'Content-Type': 'text/plain' } }), 401, 'unauthorized');
  });

  it('answers malformed JSON with 400 and a non-JSON body with 415', async () => {
    const user = await createUser();
    expectError(await call('POST', '/v1/clients', { key: user.key, body: '{"name": ' }), 400, 'invalid_json');
    expectError(
      await call('POST', '/v1/clients', { key: user.key, body: 'name=Acme', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      415,
      'unsupported_media_type',
    );
    expectError(await call('POST', '/v1/clients', { key: user.key, body: '{"name":"A"}', headers: { 'Content-Type': 'text/plain' } }), 415, 'unsupported_media_type');
  });

  it('answers a body over 100 KB with 413, and writes nothing', async () => {
    const user = await createUser();
    const res = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Big', notes: 'x'.repeat(101 * 1024) } });
    expectError(res, 413, 'payload_too_large');
    expect((await call('GET', '/v1/clients', { key: user.key })).body.data).toEqual([]);
  });

  it('answers an empty body to a create with 422 naming the required fields', async () => {
    const user = await createUser();
    const res = await call('POST', '/v1/clients', { key: user.key, headers: { 'Content-Type': 'application/json' } });
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.details).toEqual([{ path: 'name', message: expect.any(String) }]);
  });

  it('keeps a sane X-Request-Id and replaces an insane one', async () => {
    const kept = await call('GET', '/health', { headers: { 'X-Request-Id': 'trace-123.abc' } });
    expect(kept.headers.get('X-Request-Id')).toBe('trace-123.abc');
    const replaced = await call('GET', '/nowhere', { headers: { 'X-Request-Id': 'bad id with spaces <script>' } });
    expect(replaced.headers.get('X-Request-Id')).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(replaced.body.error.request_id).toBe(replaced.headers.get('X-Request-Id'));
  });

  it('turns an unexpected exception into a 500 that discloses nothing', async () => {
    const app = new Hono<{ Variables: { requestId: string } }>();
    app.use('*', async (c, next) => {
      c.set('requestId', 'req_test');
      await next();
    });
    app.onError(onError);
    app.get('/boom', () => {
      throw new Error('D1_ERROR: no such table: secrets at env.DB');
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    const body = await res.json<{ error: { code: string; message: string; request_id: string } }>();
    expect(body.error).toEqual({ code: 'internal_error', message: expect.any(String), request_id: 'req_test' });
    expect(JSON.stringify(body)).not.toMatch(/D1|table|env\.DB|stack/i);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
});

describe('rate limiting', () => {
  // The limiter counts in fixed windows of a minute on the clock: 125 requests that ran into the next
  // window without a 429 are sent again from the start of a fresh one (firstLimited).
  it('admits 120 requests a minute per key, then 429 with Retry-After', { timeout: 180_000 }, async () => {
    const [busy, calm] = [await createUser(), await createUser()];
    const found = await firstLimited(125, () => call('GET', '/api/me', { key: busy.key }));
    expect(found, 'a 429 within 125 requests').toBeDefined();
    expect(found!.after, 'requests admitted before the first 429').toBeGreaterThanOrEqual(120);
    const limited = found!.res;
    expectError(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('RateLimit-Limit')).toBe('120');
    expect(limited.headers.get('RateLimit-Remaining')).toBe('0');
    // Another key is not affected.
    const other = await call('GET', '/api/me', { key: calm.key });
    expect(other.status).toBe(200);
    expect(other.headers.get('RateLimit-Policy')).toBe('120;w=60');
  });
});
