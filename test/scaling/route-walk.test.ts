// Every workspace-scoped operation works on a workspace on either database, its records land in
// that database (the directory's in DB), and another workspace's records are a 404 whichever
// database each is on. Walks /openapi.json like the isolation matrix: every keyed route with an id,
// its record made by the factory for its id prefix (test/helpers/records.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { call, requestsPerKey } from '../helpers/api';
import { putRates } from '../helpers/rates';
import { recordKind } from '../helpers/records';
import { deliver } from '../helpers/worker';
import { fill, idPrefix, isAdmin, isPublic, label, type Route, routeTable, takesId } from '../helpers/route-table';
import { DATABASES, type DatabaseName, otherThan, type PlacedWorkspace, rowsById, workspaceOn } from './helpers';

/** The table each kind of record is stored in, and whether it is a directory table (always on DB). */
const STORED_IN: Record<string, { table: string; directory?: true }> = {
  cli: { table: 'clients' }, prj: { table: 'projects' }, inv: { table: 'invoices' }, exp: { table: 'expenses' },
  trf: { table: 'transfers' }, sug: { table: 'suggestions' }, evt: { table: 'events' }, we: { table: 'webhook_endpoints' },
  rin: { table: 'recurring_invoices' }, te: { table: 'time_entries' }, quo: { table: 'quotes' }, gig: { table: 'gigs', directory: true }, mem: { table: 'memberships', directory: true },
  ivt: { table: 'invitations', directory: true }, key: { table: 'api_keys', directory: true },
  pay: { table: 'payments' }, cn: { table: 'credit_notes' }, ind: { table: 'inbound_documents' }, prp: { table: 'proposals', directory: true },
  xpt: { table: 'exports' },
};

/** Routes that act on another workspace's record by design (proposing for its gig, §24): test/proposals/ covers them on both databases. */
const ACTS_ON_OTHERS = ['POST /v1/gigs/{id}/proposals'];

/** Bodies the routes accept, so that only ownership decides (as in the isolation matrix). */
const BODIES: [string, unknown][] = [
  ['PATCH /clients/{id}', { name: 'Renamed' }],
  ['PATCH /projects/{id}', { name: 'Renamed' }],
  ['PATCH /invoices/{id}', { notes: 'Renamed' }],
  ['POST /invoices/{id}/payments', { amount: 1 }],
  ['POST /invoices/{id}/credit-notes', { reason: 'other', lines: [{ description: 'Goodwill', quantity: 1, unit_amount: 1, tax_rate: 0 }] }],
  ['PATCH /expenses/{id}', { amount: 1 }],
  ['PATCH /time-entries/{id}', { notes: 'Renamed' }],
  ['PATCH /quotes/{id}', { notes: 'Renamed' }],
  ['POST /quotes/{id}/accept', { name: 'Bill', method: 'email' }],
  ['POST /quotes/{id}/decline', { reason: 'Too dear' }],
  ['PATCH /inbound-documents/{id}', { extracted: { number: 'R-1' } }],
  ['POST /inbound-documents/{id}/reject', { reason: 'Not ours' }],
  ['PATCH /gigs/{id}', { title: 'Renamed' }],
  ['PATCH /workspace/members/{id}', { role: 'member' }],
  ['POST /webhook-endpoints/{id}/recover', { since: '2026-01-01T00:00:00Z' }],
  ['POST /events/{id}/resend', { endpoint_id: 'we_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7' }],
];

function bodyFor(route: Route): unknown {
  if (!route.operation.requestBody) return undefined;
  const listed = BODIES.find(([k]) => {
    const [method, suffix] = k.split(' ');
    return method === route.method && route.path.endsWith(suffix!);
  });
  return listed ? listed[1] : {};
}

/** The background work a new record starts, done as the queue would: its message names its database. */
async function settle(prefix: string, id: string, database: DatabaseName) {
  const route = database === 'DB' ? {} : { database };
  if (prefix === 'trf') await deliver('workspace-transfers', [{ id: `settle-${id}`, body: { transfer_id: id, ...route } }]);
  if (prefix === 'sug') await deliver('workspace-suggestions', [{ id: `settle-${id}`, body: { suggestion_id: id, ...route } }]);
  if (prefix === 'ind') await deliver('workspace-inbound', [{ id: `settle-${id}`, body: { document_id: id, ...route } }]);
}

describe('every workspace-scoped operation on either database', async () => {
  const { routes } = await routeTable();
  const withId = routes.filter((r) => takesId(r) && !isAdmin(r) && !isPublic(r) && !ACTS_ON_OTHERS.includes(label(r)));

  beforeAll(async () => {
    await putRates({ EUR: 0.9213 });
  });

  /**
   * A workspace on `database` for `who` (its owner, or someone in another workspace), kept from case
   * to case and replaced before its key nears the rate limit: each case makes its own record, so a
   * workspace shared by the cases decides nothing another workspace would not.
   */
  const placed = new Map<string, PlacedWorkspace>();
  async function workspaceFor(who: 'owner' | 'stranger', database: DatabaseName) {
    const known = placed.get(`${who}:${database}`);
    if (known && (requestsPerKey.get(known.key) ?? 0) < 100) return known;
    const fresh = await workspaceOn(database, who);
    placed.set(`${who}:${database}`, fresh);
    return fresh;
  }

  it('walks every keyed route with an id', () => {
    expect(withId.length).toBeGreaterThan(20);
  });

  const cases = DATABASES.flatMap((database) => withId.map((route) => [`${label(route)} on ${database}`, route, database] as const));

  it.each(cases)('%s: works for its workspace, stores where it should, is a 404 to another', async (_, route, database) => {
    const owner = await workspaceFor('owner', database);
    const stranger = await workspaceFor('stranger', otherThan(database));
    const prefix = idPrefix(route)!;
    const id = await recordKind(prefix, label(route)).states[0]!(owner.key);
    await settle(prefix, id, database);

    const stored = STORED_IN[prefix];
    expect(stored, `add ${prefix} to STORED_IN`).toBeDefined();
    const home: DatabaseName = stored!.directory ? 'DB' : database;
    const rows = await rowsById(stored!.table, id);
    expect(rows, `${id} is stored in ${home} only`).toEqual({ DB: 0, DB_WORKSPACES_2: 0, [home]: 1 });

    const path = fill(route.path, id);
    const theirs = await call(route.method, path, { key: stranger.key, body: bodyFor(route), headers: { 'Idempotency-Key': crypto.randomUUID() } });
    expect({ status: theirs.status, code: theirs.body?.error?.code }, `${label(route)} from ${stranger.database}`).toEqual({ status: 404, code: 'not_found' });
    const mine = await call(route.method, path, { key: owner.key, body: bodyFor(route), headers: { 'Idempotency-Key': crypto.randomUUID() } });
    expect(mine.status, `${label(route)} by its owner: ${JSON.stringify(mine.body).slice(0, 300)}`).not.toBe(404);
    expect(mine.status).toBeLessThan(500);
  });
});
