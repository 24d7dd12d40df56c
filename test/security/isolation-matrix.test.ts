// Another user's record is a 404 on every route that takes an id, changes nothing, and never shows
// in anything another user can read. Generated from /openapi.json: every route with a path id is a
// case; the record comes from the factory for its id prefix (test/helpers/records.ts), and a route
// whose kind of record has no factory fails, saying where to add one.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, requestsPerKey } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { recordKind } from '../helpers/records';
import { fill, idPrefix, isAdmin, isPublic, label, readRouteFor, type Route, routeTable, takesId } from '../helpers/route-table';

/**
 * A body the route accepts, so that only ownership can stop the request, keyed by "METHOD suffix".
 * A body with no required field gets {} when it is not listed; one with required fields must be.
 */
const validBodies: Record<string, unknown> = {
  'PATCH /clients/{id}': { name: 'Taken over' },
  'PATCH /projects/{id}': { name: 'Taken over' },
  'PATCH /invoices/{id}': { notes: 'Taken over' },
  'POST /invoices/{id}/payments': { amount: 1 },
  'POST /invoices/{id}/credit-notes': { reason: 'other' },
  'PATCH /expenses/{id}': { amount: 1 },
  'PATCH /time-entries/{id}': { notes: 'Taken over' },
  'PATCH /quotes/{id}': { notes: 'Taken over' },
  'POST /quotes/{id}/accept': { name: 'Mallory', method: 'email' },
  'POST /quotes/{id}/decline': { reason: 'Taken over' },
  'PATCH /inbound-documents/{id}': { extracted: { number: 'Taken over' } },
  'POST /inbound-documents/{id}/reject': { reason: 'Taken over' },
  'PATCH /gigs/{id}': { title: 'Taken over' },
  'PATCH /workspace/members/{id}': { role: 'member' },
  'POST /webhook-endpoints/{id}/recover': { since: '2026-01-01T00:00:00Z' },
  // The endpoint is the caller's own (below); the event in the path is the other workspace's.
  'POST /events/{id}/resend': { endpoint_id: 'we_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7' },
};

/**
 * Routes that act on another workspace's record by design: answering someone else's gig with a
 * proposal (§24; test/proposals/ covers who may, and that the poster's own is a 409).
 */
const ACTS_ON_OTHERS = ['POST /v1/gigs/{id}/proposals'];
/** What a read needs of the workspace before it answers 200, keyed by "METHOD path": the DATEV export, its accounting setting (§22). */
const readyFor: Record<string, (key: string) => Promise<unknown>> = {
  'GET /v1/exports/datev': (key) => call('PATCH', '/api/workspace', { key, body: { accounting: { chart: 'SKR03', consultant_number: 1001, client_number: 1 } } }),
};

/** The query of a read: `limit=100` for a list, and each required parameter's example (a period's dates). */
function queryFor(route: Route, doc: any): string {
  const params = new URLSearchParams();
  for (const p of route.operation.parameters ?? []) {
    if (p.in !== 'query') continue;
    if (p.name === 'limit') params.set('limit', '100');
    else if (p.required) params.set(p.name, String(p.schema?.example ?? doc.components.schemas[String(p.schema?.$ref).split('/').pop()!]?.example));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function bodyFor(route: Route, doc: any): unknown {
  const content = route.operation.requestBody?.content['application/json'];
  if (!content) return undefined;
  const listed = Object.keys(validBodies).find((k) => {
    const [method, suffix] = k.split(' ');
    return method === route.method && route.path.endsWith(suffix!);
  });
  if (listed) return validBodies[listed];
  const ref = (content.schema as { $ref?: string }).$ref;
  const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : content.schema;
  if (!schema.required?.length) return {};
  throw new Error(`Add a body ${label(route)} accepts to validBodies in the isolation matrix`);
}

let owner: TestUser;
let stranger: TestUser;
const ownIds = new Set<string>();
const owners: TestUser[] = [];

/** Fresh users once a key nears the limit of 120 requests a minute (a case sends about ten). */
async function usersWithRoom() {
  if (!owner || (requestsPerKey.get(owner.key) ?? 0) > 100) owners.push((owner = await createUser('Owner')));
  if (!stranger || (requestsPerKey.get(stranger.key) ?? 0) > 100) stranger = await createUser('Stranger');
}

/** A fresh record of the kind the route acts on, owned by `owner`, with its background work done. */
async function ownRecord(route: Route, prefix = idPrefix(route)!): Promise<string> {
  const kind = recordKind(prefix, label(route));
  const id = await kind.states[0]!(owner.key);
  await kind.settle?.(id);
  ownIds.add(id);
  return id;
}

/** The owner's view of the record: its own GET, or the list it appears in. */
async function ownerView(route: Route, routes: Route[], id: string) {
  const read = readRouteFor(route, routes);
  const path = read ? fill(read.path, id) : `${route.path.slice(0, route.path.indexOf('/{'))}?limit=100`;
  const res = await call('GET', path, { key: owner.key });
  expect(res.status, `the owner reads ${path}`).toBe(200);
  return res.body;
}

const leaks = (body: unknown) => {
  const text = JSON.stringify(body);
  return [...ownIds, ...owners.flatMap((o) => [o.id, o.email])].filter((secret) => text.includes(secret));
};

describe('isolation matrix', async () => {
  const { routes, doc } = await routeTable();
  const withId = routes.filter((r) => takesId(r) && !isAdmin(r) && !ACTS_ON_OTHERS.includes(label(r)));
  const keyedReads = routes.filter((r) => r.method === 'GET' && !takesId(r) && !isPublic(r) && !isAdmin(r));
  const publicReads = routes.filter((r) => r.method === 'GET' && isPublic(r) && !takesId(r));

  beforeAll(async () => {
    await putRates({ EUR: 0.9213 });
  });
  beforeEach(usersWithRoom);

  it('walks every route with an id and every read', () => {
    expect(withId.length).toBeGreaterThan(20);
    expect(keyedReads.length).toBeGreaterThan(10);
  });

  it.each(withId.map((r) => [label(r), r] as const))('%s: another user\'s id is a 404 and changes nothing', async (_, route) => {
    const id = await ownRecord(route);
    const path = fill(route.path, id);
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    if (isPublic(route)) {
      // Public gig reads show any gig by design, but never who posted it beyond a name.
      const res = await call(route.method, path, { key: stranger.key });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(owner.id);
      expect(JSON.stringify(res.body)).not.toContain(owner.email);
      return;
    }
    const before = await ownerView(route, routes, id);
    const res = await call(route.method, path, { key: stranger.key, body: bodyFor(route, doc), headers });
    expect({ status: res.status, code: res.body?.error?.code }, `${label(route)} by another user`).toEqual({ status: 404, code: 'not_found' });
    expect(await ownerView(route, routes, id), 'the record is unchanged').toEqual(before);
    // The same request by the owner reaches the record: the 404 above was about ownership.
    const mine = await call(route.method, path, { key: owner.key, body: bodyFor(route, doc), headers: { 'Idempotency-Key': crypto.randomUUID() } });
    expect(mine.status, `${label(route)} by the owner: ${JSON.stringify(mine.body).slice(0, 200)}`).not.toBe(404);
  });

  it.each(keyedReads.map((r) => [label(r), r] as const))('%s shows another user none of the owner\'s records', async (_, route) => {
    // A list shows its own kind of record to its owner and to no one else.
    const item = routes.find((r) => r.path.startsWith(`${route.path}/{`));
    const listed = item ? recordKind(idPrefix(item)!, label(item)).listed : undefined;
    const fresh = listed ? await listed(owner.key) : item ? await ownRecord(item) : null;
    if (listed && fresh) ownIds.add(fresh);
    const query = queryFor(route, doc);
    for (const user of [owner, stranger]) await readyFor[label(route)]?.(user.key);
    if (fresh) {
      const own = await call('GET', `${route.path}${query}`, { key: owner.key });
      expect(own.status).toBe(200);
      expect(JSON.stringify(own.body), `the owner's ${route.path} shows ${fresh}`).toContain(fresh);
    }
    const res = await call('GET', `${route.path}${query}`, { key: stranger.key });
    expect(res.status).toBe(200);
    expect(leaks(res.body), `${route.path} as another user`).toEqual([]);
  });

  // Runs after the cases above, so the owner has gigs on the public board by now.
  it.each(publicReads.map((r) => [label(r), r] as const))('%s shows no one\'s user id or email', async (_, route) => {
    const res = await call('GET', route.path);
    expect(res.status).toBe(200);
    expect(leaks(res.body).filter((secret) => !secret.startsWith('gig_'))).toEqual([]);
  });
});
