import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createUser, type TestUser } from '../helpers/factories';
import { deleteRates, mockUpstream, putRates, upstreamAnswer } from '../helpers/rates';

let user: TestUser;

describe('GET /api/rates', () => {
  beforeEach(async () => {
    user = await createUser();
    await deleteRates();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('serves the cached rates, filtered by symbol, without calling the upstream', async () => {
    await putRates({ EUR: 0.9213, GBP: 0.7871, JPY: 151.37 });
    const upstream = mockUpstream(() => Response.json({}));
    const res = await call('GET', '/api/rates?symbols=EUR,GBP', { key: user.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ base: 'USD', rates: { EUR: 0.9213, GBP: 0.7871 }, as_of: expect.any(String), fetched_at: expect.any(String), source: 'test', stale: false, suspect: [] });
    expect(upstream).not.toHaveBeenCalled();
    expect(Object.keys((await call('GET', '/api/rates', { key: user.key })).body.rates)).toEqual(['USD', 'EUR', 'GBP', 'JPY']);
  });

  it('answers 422 for an unknown symbol or one without a rate', async () => {
    await putRates({ EUR: 0.9 });
    for (const symbols of ['EUR,XYZ', 'eur', 'KWD']) {
      const res = await call('GET', `/api/rates?symbols=${symbols}`, { key: user.key });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual(['symbols']);
    }
  });

  it('marks rates published more than 36 hours ago as stale', async () => {
    await putRates({ EUR: 0.9 }, new Date(Date.now() - 37 * 3_600_000));
    expect((await call('GET', '/api/rates', { key: user.key })).body.stale).toBe(true);
    await putRates({ EUR: 0.9 }, new Date(Date.now() - 35 * 3_600_000));
    expect((await call('GET', '/api/rates', { key: user.key })).body.stale).toBe(false);
  });

  it('fills an empty cache from the upstream once, on the first request', async () => {
    const upstream = mockUpstream(() => Response.json(upstreamAnswer({ EUR: 0.95 })));
    const first = await call('GET', '/api/rates?symbols=EUR', { key: user.key });
    expect(first.body.rates).toEqual({ EUR: 0.95 });
    await call('GET', '/api/rates?symbols=EUR', { key: user.key });
    expect(upstream).toHaveBeenCalledOnce();
  });

  it('answers 503 with Retry-After when there is nothing to serve at all', async () => {
    mockUpstream(() => Promise.reject(new TypeError('offline')));
    const res = await call('GET', '/api/rates', { key: user.key });
    expectError(res, 503, 'rates_unavailable');
    expect(res.headers.get('Retry-After')).toBe('60');
  });

  it('lets clients poll cheaply with an ETag', async () => {
    await putRates({ EUR: 0.9 });
    const first = await call('GET', '/api/rates?symbols=EUR', { key: user.key });
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get('Cache-Control')).toBe('private, max-age=60');
    const again = await call('GET', '/api/rates?symbols=EUR', { key: user.key, headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    await putRates({ EUR: 0.91 });
    expect((await call('GET', '/api/rates?symbols=EUR', { key: user.key, headers: { 'If-None-Match': etag! } })).status).toBe(200);
  });

  it('requires a key', async () => {
    await expectKeyRequired('GET', '/api/rates');
  });
});
