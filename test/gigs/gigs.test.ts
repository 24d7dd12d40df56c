import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { addMember, createUser, type TestUser, workspaceWithEveryRole } from '../helpers/factories';

const gigBody = (over: Record<string, unknown> = {}) => ({
  title: 'Cloudflare Workers API for a booking app',
  description: 'Build a Hono API on Workers with D1 and queues.',
  skills: ['TypeScript', 'Cloudflare'],
  budget_type: 'fixed',
  budget_min: 200_000,
  budget_max: 500_000,
  currency: 'EUR',
  ...over,
});

async function post(user: TestUser, over: Record<string, unknown> = {}) {
  const res = await call('POST', '/v1/gigs', { key: user.key, body: gigBody(over) });
  expect(res.status).toBe(201);
  return res.body;
}

describe('the gig board', () => {
  it('shows a posted gig publicly, with the poster\'s name and nothing else about them or their workspace', async () => {
    const user = await createUser('Ada Lovelace');
    const workspace = (await call('GET', '/api/workspace', { key: user.key })).body;
    const gig = await post(user);
    expect(gig).toMatchObject({ skills: ['typescript', 'cloudflare'], status: 'open', remote: true, posted_by: { name: 'Ada Lovelace' } });
    const res = await call('GET', `/v1/gigs/${gig.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=30');
    expect(res.body).toEqual(gig);
    const listed = await call('GET', '/v1/gigs?limit=100');
    for (const text of [JSON.stringify(res.body), JSON.stringify(listed.body)]) {
      expect(text).not.toContain(user.email);
      expect(text).not.toContain(user.id);
      expect(text).not.toContain(workspace.id);
      expect(text).not.toMatch(/usr_|wsp_|user_id|workspace_id|email/);
    }
  });

  it('finds gigs by full-text search over title, description and skills', async () => {
    const user = await createUser();
    const a = await post(user, { title: 'Logo for a bakery', description: 'Warm, hand-drawn.', skills: ['illustration'] });
    const b = await post(user, { title: 'Bakery website', description: 'Online orders for bread.', skills: ['webflow'] });
    const ids = async (q: string) => (await call('GET', `/v1/gigs?q=${encodeURIComponent(q)}&limit=100`)).body.data.map((g: { id: string }) => g.id);
    expect(await ids('bakery')).toEqual([b.id, a.id]);
    expect(await ids('bak')).toEqual([b.id, a.id]); // prefixes match
    expect(await ids('bakery website')).toEqual([b.id]); // every word must match
    expect(await ids('illustration')).toEqual([a.id]); // skills are searched
    expect(await ids('bread')).toEqual([b.id]);
    for (const hostile of ['"', 'NEAR(', '*', 'bakery OR', '-bread', 'title:logo', "'; DROP TABLE gigs; --", '\u0000']) {
      const res = await call('GET', `/v1/gigs?q=${encodeURIComponent(hostile)}`);
      expect(res.status, hostile).toBe(200);
    }
  });

  it('filters by skill, remote, budget type, currency, minimum budget and status', async () => {
    const user = await createUser();
    const tag = `skill${crypto.randomUUID().slice(0, 6)}`;
    const hourly = await post(user, { skills: [tag], budget_type: 'hourly', budget_min: 5_000, budget_max: 9_000, currency: 'USD', remote: false, location: 'Berlin' });
    const fixed = await post(user, { skills: [tag] });
    const ids = async (q: string) => (await call('GET', `/v1/gigs?skill=${tag}&${q}`)).body.data.map((g: { id: string }) => g.id);
    expect(await ids('')).toEqual([fixed.id, hourly.id]);
    expect(await ids('remote=false')).toEqual([hourly.id]);
    expect(await ids('budget_type=fixed')).toEqual([fixed.id]);
    expect(await ids('currency=USD')).toEqual([hourly.id]);
    expect(await ids('min_budget=10000')).toEqual([fixed.id]);
    await call('PATCH', `/v1/gigs/${fixed.id}`, { key: user.key, body: { status: 'closed' } });
    expect(await ids('')).toEqual([hourly.id]);
    expect(await ids('status=closed')).toEqual([fixed.id]);
    expectError(await call('GET', '/v1/gigs?remote=maybe'), 422, 'validation_failed');
  });

  it('validates a posting, budget order included', async () => {
    const user = await createUser();
    const res = await call('POST', '/v1/gigs', { key: user.key, body: gigBody({ budget_min: 500_000, budget_max: 100_000 }) });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['budget_max']);
    const bad = await call('POST', '/v1/gigs', { key: user.key, body: { ...gigBody(), budget_type: 'weekly', title: 'x', salary: 1 } });
    expect(errorPaths(bad).sort()).toEqual(['budget_type', 'salary', 'title']);
    const gig = await post(user);
    const patch = await call('PATCH', `/v1/gigs/${gig.id}`, { key: user.key, body: { budget_min: 600_000 } });
    expect(errorPaths(patch)).toEqual(['budget_max']);
  });

  it('lets only the workspace that posted a gig edit or remove it', async () => {
    const [owner, other] = [await createUser(), await createUser()];
    const gig = await post(owner);
    expectError(await call('PATCH', `/v1/gigs/${gig.id}`, { key: other.key, body: { title: 'Hijacked title' } }), 404, 'not_found');
    expectError(await call('DELETE', `/v1/gigs/${gig.id}`, { key: other.key }), 404, 'not_found');
    expect((await call('GET', `/v1/gigs/${gig.id}`)).body.title).toBe(gig.title);
    const edited = await call('PATCH', `/v1/gigs/${gig.id}`, { key: owner.key, body: { title: 'Workers API, phase one' } });
    expect(edited.body.title).toBe('Workers API, phase one');
    expect((await call('GET', `/v1/gigs?q=phase`)).body.data.map((g: { id: string }) => g.id)).toContain(gig.id);
    expect((await call('DELETE', `/v1/gigs/${gig.id}`, { key: owner.key })).status).toBe(204);
    expectError(await call('GET', `/v1/gigs/${gig.id}`), 404, 'not_found');
    expect((await call('GET', `/v1/gigs?q=phase`)).body.data.map((g: { id: string }) => g.id)).not.toContain(gig.id);
  });

  it('is posted and changed by members of the workspace; viewers only read the board', async () => {
    const team = await workspaceWithEveryRole();
    const gig = await post(team.member);
    expect(gig.posted_by).toEqual({ name: 'A member' });
    expectError(await call('POST', '/v1/gigs', { key: team.viewer.key, body: gigBody() }), 403, 'forbidden');
    expectError(await call('PATCH', `/v1/gigs/${gig.id}`, { key: team.viewer.key, body: { title: 'Viewer title' } }), 403, 'forbidden');
    expectError(await call('DELETE', `/v1/gigs/${gig.id}`, { key: team.viewer.key }), 403, 'forbidden');
    // Another member of the workspace may change it; it still shows who posted it.
    const colleague = await addMember(team.owner.key, 'member', 'Grace Hopper');
    const closed = await call('PATCH', `/v1/gigs/${gig.id}`, { key: colleague.key, body: { status: 'closed' } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', posted_by: { name: 'A member' } });
    expect((await call('DELETE', `/v1/gigs/${gig.id}`, { key: team.admin.key })).status).toBe(204);
    expectError(await call('GET', `/v1/gigs/${gig.id}`), 404, 'not_found');
  });

  it('needs a key to post, edit or remove', async () => {
    await expectKeyRequired('POST', '/v1/gigs', gigBody());
    await expectKeyRequired('PATCH', '/v1/gigs/gig_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', { title: 'x' });
    await expectKeyRequired('DELETE', '/v1/gigs/gig_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7');
  });
});
