// The limits of §7 through the real worker: per key and per workspace over all its keys, the
// co-pilot per workspace, public routes per client address, and the admin lockout.
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AdminLockout } from '../../src/middleware/admin-lockout-object';
import { shardOf } from '../../src/middleware/admin-lockout';
import { ADMIN_TOKEN, call, expectError, type ApiResponse } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { firstLimited } from '../helpers/rate-windows';

const newKey = async (key: string) => (await call('POST', '/api/keys', { key, body: { name: 'another' } })).body.key as string;

const expectLimited = (res: ApiResponse, limit: number) => {
  expectError(res, 429, 'rate_limited');
  expect(res.headers.get('RateLimit-Limit')).toBe(String(limit));
  expect(res.headers.get('RateLimit-Remaining')).toBe('0');
  const retryAfter = Number(res.headers.get('Retry-After'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
};

// A count that ran into the next window is sent again from the start of a fresh one (firstLimited):
// on a busy machine, up to two rounds of requests and a minute's wait.
const COUNTING = { timeout: 180_000 };

describe('keyed limits', COUNTING, () => {
  it('counts every key of a workspace against its 600 a minute: minting keys buys nothing', async () => {
    const owner = await createUser();
    const keys = [owner.key];
    for (let i = 0; i < 5; i++) keys.push(await newKey(owner.key));
    // 6 keys × 105 requests: each stays under its own 120, together they pass 600.
    const limited = await firstLimited(6 * 105, (i) => call('GET', '/api/me', { key: keys[i % keys.length] }));
    expect(limited).toBeDefined();
    expect(limited!.after).toBeGreaterThanOrEqual(590);
    expectLimited(limited!.res, 600);
    expect(limited!.res.body.error.message).toContain('per workspace');
    // Another workspace is not affected.
    expect((await call('GET', '/api/me', { key: (await createUser()).key })).status).toBe(200);
  });

  it('describes the tightest limit that applies: 120 per key, 10 for the co-pilot', async () => {
    const user = await createUser();
    const me = await call('GET', '/api/me', { key: user.key });
    expect(me.headers.get('RateLimit-Limit')).toBe('120');
    const ask = await call('POST', '/v1/ai/suggest', { key: user.key, body: { task: 'Plan the launch' } });
    expect(ask.status).toBe(202);
    expect(ask.headers.get('RateLimit-Limit')).toBe('10');
    expect(ask.headers.get('RateLimit-Policy')).toBe('10;w=60');
  });

  it('limits the co-pilot to 10 a minute per workspace, however many keys ask', async () => {
    const owner = await createUser();
    const keys = [owner.key, await newKey(owner.key), await newKey(owner.key)];
    const limited = await firstLimited(12, (i) => call('POST', '/v1/ai/suggest', { key: keys[i % 3], body: { task: `Task ${i}` } }));
    expect(limited).toBeDefined();
    expect(limited!.after).toBe(10);
    expectLimited(limited!.res, 10);
    expect(limited!.res.body.error.message).toContain('per workspace');
  });
});

describe('public routes, per client address', COUNTING, () => {
  it('admits 10 waitlist sign-ups a minute from one address, then 429; other addresses go on', async () => {
    const from = { 'CF-Connecting-IP': '203.0.113.10' };
    const limited = await firstLimited(11, (i) => call('POST', '/api/waitlist', { headers: from, body: { email: `w${i}@example.com` } }));
    expect(limited?.after).toBe(10);
    expectLimited(limited!.res, 10);
    expect(limited!.res.body.error.message).toContain('per address');
    const elsewhere = await call('POST', '/api/waitlist', { headers: { 'CF-Connecting-IP': '203.0.113.11' }, body: { email: 'x@example.com' } });
    expect(elsewhere.status).toBe(202);
  });

  it('counts invitation redemption apart from the waitlist, 10 a minute per address', async () => {
    const from = { 'CF-Connecting-IP': '203.0.113.20' };
    for (let i = 0; i < 10; i++) expect((await call('POST', '/api/waitlist', { headers: from, body: { email: `a${i}@example.com` } })).status).toBe(202);
    // The waitlist bucket is full; accepting still has its own ten (unknown codes: 404).
    const limited = await firstLimited(11, () => call('POST', '/api/invitations/accept', { headers: from, body: { code: 'wsi_unknownunknownunknownunknown00' } }));
    expect(limited?.after).toBe(10);
    expectLimited(limited!.res, 10);
  });

  it('admits 300 gig reads a minute from one address', async () => {
    const from = { 'CF-Connecting-IP': '203.0.113.30' };
    const first = await call('GET', '/v1/gigs', { headers: from });
    expect(first.headers.get('RateLimit-Limit')).toBe('300');
    const limited = await firstLimited(301, () => call('GET', '/v1/gigs?limit=1', { headers: from }));
    // 299 after the first read; 300 when the count started again in a fresh window.
    expect([299, 300]).toContain(limited?.after);
    expectLimited(limited!.res, 300);
  });
});

describe('hosted invoice pages', COUNTING, () => {
  it('admits 60 page and PDF opens a minute from one address; another address goes on', async () => {
    const from = { 'CF-Connecting-IP': '203.0.113.60' };
    const limited = await firstLimited(61, (i) => call('GET', `/i/unknown-token-${i}${i % 2 ? '/pdf' : ''}`, { headers: from }));
    expect(limited?.after).toBe(60);
    expectLimited(limited!.res, 60);
    const elsewhere = await call('GET', '/i/unknown-token', { headers: { 'CF-Connecting-IP': '203.0.113.61' } });
    expect(elsewhere.status).toBe(404);
  });
});

describe('admin lockout', () => {
  const admin = (address: string, token: string | null) =>
    call('GET', '/api/admin/waitlist', { headers: { 'CF-Connecting-IP': address, ...(token ? { Authorization: `Bearer ${token}` } : {}) } });

  it('locks an address out for the rest of 10 minutes after 10 failed tokens, even with the right one', async () => {
    const address = '203.0.113.40';
    for (let i = 0; i < 5; i++) expectError(await admin(address, `wrong-token-${i}`), 401, 'unauthorized');
    // A missing token counts as a failure too.
    for (let i = 0; i < 5; i++) expectError(await admin(address, null), 401, 'unauthorized');
    const locked = await admin(address, ADMIN_TOKEN);
    expectError(locked, 429, 'rate_limited');
    const retryAfter = Number(locked.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    expect(locked.headers.get('RateLimit-Policy')).toBe('10;w=600');
    // Another address with the right token is let in.
    expect((await admin('203.0.113.41', ADMIN_TOKEN)).status).toBe(200);
  });

  it('does not count the right token, and nine failures do not lock', async () => {
    const address = '203.0.113.42';
    for (let i = 0; i < 9; i++) expectError(await admin(address, 'wrong-token'), 401, 'unauthorized');
    for (let i = 0; i < 5; i++) expect((await admin(address, ADMIN_TOKEN)).status).toBe(200);
  });

  it('locks only the address that failed, also among the addresses counted in the same object', async () => {
    const address = '203.0.113.44';
    const neighbour = Array.from({ length: 200 }, (_, i) => `198.51.100.${i}`).find((a) => shardOf(a) === shardOf(address))!;
    for (let i = 0; i < 10; i++) expectError(await admin(address, 'wrong-token'), 401, 'unauthorized');
    expectError(await admin(address, ADMIN_TOKEN), 429, 'rate_limited');
    expect((await admin(neighbour, ADMIN_TOKEN)).status).toBe(200);
  });

  it('forgets a window once it has ended: the lock lifts and nothing of it stays stored', async () => {
    const address = '203.0.113.45';
    const counter = env.ADMIN_LOCKOUT.get(env.ADMIN_LOCKOUT.idFromName(`shard-${shardOf(address)}`));
    const elevenMinutesAgo = Date.now() - 11 * 60_000;
    await runInDurableObject(counter, async (object: AdminLockout, state) => {
      for (let i = 0; i < 10; i++) await object.recordFailure(address, elevenMinutesAgo);
      expect(await object.lockedUntil(address, elevenMinutesAgo + 1)).toBe(elevenMinutesAgo + 10 * 60_000);
      await object.alarm();
      expect([...(await state.storage.list({ prefix: 'window:' })).keys()]).not.toContain(`window:${address}`);
    });
    expect((await admin(address, ADMIN_TOKEN)).status).toBe(200);
  });

  it('counts a user key on an admin route as a failed attempt (403)', async () => {
    const address = '203.0.113.43';
    const user = await createUser();
    for (let i = 0; i < 10; i++) expectError(await admin(address, user.key), 403, 'forbidden');
    expectError(await admin(address, ADMIN_TOKEN), 429, 'rate_limited');
  });
});
