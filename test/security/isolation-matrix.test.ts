// Another user's record is a 404, on every route that takes an id, and never appears in a list.
// Generated from /openapi.json: a route whose id kind has no factory below fails, saying so.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createProject, createSentInvoice, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { fill, idPrefix, isAdmin, isPublic, routeTable, type Route } from '../helpers/route-table';
import { sendTransfer } from '../helpers/transfers';

/** Makes one record of each kind for a user; keyed by the id prefix in the route's path pattern. */
const factories: Record<string, (user: TestUser) => Promise<string>> = {
  cli: async (u) => (await createClient(u.key)).id,
  prj: async (u) => (await createProject(u.key)).id,
  inv: async (u) => (await createSentInvoice(u.key)).id,
  exp: async (u) => (await call('POST', '/api/workflow/expenses', { key: u.key, body: { category: 'other', amount: 100 } })).body.id,
  gig: async (u) => (await call('POST', '/v1/gigs', { key: u.key, body: { title: 'Matrix gig', description: 'x', budget_type: 'fixed', budget_min: 1, budget_max: 2 } })).body.id,
  trf: async (u) => (await sendTransfer(u.key)).id,
  sug: async (u) => (await call('POST', '/v1/ai/suggest', { key: u.key, body: { task: 'Plan it' } })).body.id,
  key: async (u) => (await call('POST', '/api/keys', { key: u.key, body: { name: 'matrix' } })).body.id,
};

/** A body the route would accept, so that only ownership can stop it. Keyed by "METHOD suffix". */
const validBodies: Record<string, unknown> = {
  'PATCH /clients/{id}': { name: 'Taken over' },
  'PATCH /projects/{id}': { name: 'Taken over' },
  'PATCH /invoices/{id}': { notes: 'Taken over' },
  'POST /invoices/{id}/payments': { amount: 1 },
  'PATCH /expenses/{id}': { amount: 1 },
  'PATCH /gigs/{id}': { title: 'Taken over' },
};
const bodyFor = (route: Route) => {
  if (!route.operation.requestBody) return undefined;
  const key = Object.keys(validBodies).find((k) => {
    const [method, suffix] = k.split(' ');
    return method === route.method && route.path.endsWith(suffix!);
  });
  if (!key) throw new Error(`Add a valid body for ${route.method} ${route.path} to validBodies in the isolation matrix`);
  return validBodies[key];
};

let owner: TestUser;
let stranger: TestUser;
const ownIds: Record<string, string> = {};

beforeAll(async () => {
  await putRates({ EUR: 0.9213 });
  [owner, stranger] = [await createUser('Owner'), await createUser('Stranger')];
  for (const [prefix, make] of Object.entries(factories)) ownIds[prefix] = await make(owner);
});

describe('isolation matrix', async () => {
  const { routes } = await routeTable();
  const withId = routes.filter((r) => r.path.includes('{id}') && !isAdmin(r));
  const lists = routes.filter((r) => r.method === 'GET' && !r.path.includes('{id}') && !isPublic(r) && !isAdmin(r) && JSON.stringify(r.operation.responses['200'] ?? {}).includes('Page'));

  it('covers every route that takes an id', () => {
    expect(withId.length).toBeGreaterThan(20);
    for (const route of withId) expect(factories[idPrefix(route) ?? 'none'], `no factory for ${route.method} ${route.path}`).toBeDefined();
  });

  it.each(withId.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: another user\'s id is a 404', async (_, route) => {
    const id = ownIds[idPrefix(route)!]!;
    if (isPublic(route)) return; // public gig reads show any gig by design
    const before = await snapshot(route, id);
    const res = await call(route.method, fill(route.path, id), { key: stranger.key, body: bodyFor(route), headers: { 'Idempotency-Key': crypto.randomUUID() } });
    expect(res.status, `${route.method} ${route.path}`).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(await snapshot(route, id)).toEqual(before);
  });

  it.each(lists.map((r) => [r.path, r] as const))('GET %s never lists another user\'s records', async (_, route) => {
    const res = await call('GET', `${route.path}?limit=100`, { key: stranger.key });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    for (const id of Object.values(ownIds)) expect(text).not.toContain(id);
  });
});

/** The owner's view of the record, to prove a refused request changed nothing. */
async function snapshot(route: Route, id: string) {
  const prefix = idPrefix(route);
  const readPath: Record<string, string> = {
    cli: `/v1/clients/${id}`, prj: `/v1/projects/${id}`, inv: `/v1/invoices/${id}`, exp: `/api/workflow/expenses/${id}`,
    gig: `/v1/gigs/${id}`, trf: `/v1/remit/transfers/${id}`, sug: `/v1/ai/suggestions/${id}`, key: '/api/keys?limit=100',
  };
  const res = await call('GET', readPath[prefix!]!, { key: owner.key });
  return res.body;
}

