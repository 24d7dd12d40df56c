// Reads across the world (§14): every request goes through one D1 session, started at the primary
// for keyed requests, anywhere for the public gig board, or at the bookmark the client sends back;
// every answer carries the session's bookmark, and a read with it sees the write that gave it.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createUser } from '../helpers/factories';

afterEach(() => vi.restoreAllMocks());

const bookmarkOf = (res: { headers: Headers }) => res.headers.get('X-D1-Bookmark');

describe('D1 sessions and bookmarks', () => {
  it('answers a bookmark, and a read that sends it back sees the write that gave it', async () => {
    const user = await createUser();
    const created = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Read-your-writes Ltd' } });
    const bookmark = bookmarkOf(created);
    expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);
    const read = await call('GET', `/v1/clients/${created.body.id}`, { key: user.key, headers: { 'X-D1-Bookmark': bookmark! } });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('Read-your-writes Ltd');
    // Bookmarks only move forward: the read's is at least the write's.
    expect(bookmarkOf(read)! >= bookmark!).toBe(true);
  });

  it('starts keyed requests at the primary, the public gig board anywhere, and a sent bookmark at that bookmark', async () => {
    const user = await createUser();
    const started = vi.spyOn(env.DB, 'withSession');
    await call('GET', '/v1/clients', { key: user.key });
    await call('GET', '/v1/gigs');
    const bookmark = bookmarkOf(await call('GET', '/v1/gigs'));
    await call('GET', '/v1/clients', { key: user.key, headers: { 'X-D1-Bookmark': bookmark! } });
    expect(started.mock.calls.map(([start]) => start)).toEqual(['first-primary', 'first-unconstrained', 'first-unconstrained', bookmark]);
  });

  it('ignores a malformed bookmark and starts at the primary', async () => {
    const user = await createUser();
    const started = vi.spyOn(env.DB, 'withSession');
    for (const junk of ['not-a-bookmark', "'; DROP TABLE clients; --", 'f'.repeat(300)]) {
      const res = await call('GET', '/v1/clients', { key: user.key, headers: { 'X-D1-Bookmark': junk } });
      expect(res.status).toBe(200);
      expect(bookmarkOf(res)).toBeTruthy();
    }
    expect(started.mock.calls.map(([start]) => start)).toEqual(['first-primary', 'first-primary', 'first-primary']);
  });
});
