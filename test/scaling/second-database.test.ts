// A workspace on the second database, around its routes: placement, the cron's record tasks on each
// database, queue messages that name the database of their record (the consumer reads it there),
// member events and settings reaching the workspace's database, hosted links, bookmarks, and a bad
// WORKSPACE_DATABASES refused.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index';
import { todayIn } from '../../src/modules/recurring-invoices/schedule';
import { databaseBinding, databaseOf, placeNewWorkspace } from '../../src/lib/databases';
import { call } from '../helpers/api';
import { addMember, createClient, createSentInvoice, createUser, oneLine } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { sendTransfer } from '../helpers/transfers';
import { deliver, runScheduled } from '../helpers/worker';
import { createEndpoint, receiver } from '../webhooks/helpers';
import { directoryDatabaseOf, rowsById, workspaceOn } from './helpers';

afterEach(() => vi.restoreAllMocks());

const SECOND = 'DB_WORKSPACES_2';
const daysFromToday = (n: number) => new Date(Date.parse(`${todayIn('UTC')}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** What the worker puts on a queue, bodies whole, kept instead of sent. */
function captured(queue: Queue) {
  const bodies: Record<string, unknown>[] = [];
  vi.spyOn(queue, 'sendBatch').mockImplementation((async (messages: Iterable<MessageSendRequest>) => {
    for (const m of messages) bodies.push(m.body as Record<string, unknown>);
  }) as never);
  vi.spyOn(queue, 'send').mockImplementation((async (body: unknown) => void bodies.push(body as Record<string, unknown>)) as never);
  return bodies;
}

const eventsOf = async (key: string, type: string) => (await call('GET', `/api/events?type=${type}&limit=100`, { key })).body.data as { id: string }[];

describe('placement', () => {
  it('keeps personal workspaces on DB and records each new one\'s database as its id\'s hash says', async () => {
    const user = await createUser();
    expect(await directoryDatabaseOf(`wsp_${user.id.slice(4)}`)).toBeNull();
    const placed = await workspaceOn(SECOND);
    expect(await directoryDatabaseOf(placed.id)).toBe(SECOND);
    expect(placeNewWorkspace(env, placed.id)).toBe(SECOND);
    // The binding the app reads a workspace's records from, as its directory row says.
    const bindingFor = async (id: string) => databaseBinding(env, databaseOf({ database: (await directoryDatabaseOf(id)) ?? null }));
    expect(await bindingFor(placed.id)).toBe(env.DB_WORKSPACES_2);
    expect(await bindingFor(`wsp_${user.id.slice(4)}`)).toBe(env.DB);
    // Its copy in the second database, for the foreign keys; none of it in DB's records.
    expect((await rowsById('workspaces', placed.id)).DB_WORKSPACES_2).toBe(1);
    expect((await rowsById('users', placed.owner.id)).DB_WORKSPACES_2).toBe(1);
    const onDb = await workspaceOn('DB');
    expect(await directoryDatabaseOf(onDb.id)).toBeNull();
    expect(await rowsById('workspaces', onDb.id)).toEqual({ DB: 1, DB_WORKSPACES_2: 0 });
  });

  it('spreads new workspaces evenly over the databases listed, and keeps them all on DB by default', () => {
    const ids = Array.from({ length: 2_000 }, () => `wsp_${crypto.randomUUID().replaceAll('-', '').slice(0, 26).toUpperCase()}`);
    const onSecond = ids.filter((id) => placeNewWorkspace(env, id) === SECOND).length;
    expect(onSecond / ids.length).toBeGreaterThan(0.4);
    expect(onSecond / ids.length).toBeLessThan(0.6);
    expect(ids.every((id) => placeNewWorkspace(env, id) === placeNewWorkspace(env, id))).toBe(true);
    const unconfigured = { ...env, WORKSPACE_DATABASES: undefined } as unknown as Env;
    expect(ids.filter((id) => placeNewWorkspace(unconfigured, id) !== null)).toEqual([]);
  });
});

describe('the cron on the second database', () => {
  it('issues a due recurring invoice and writes invoice.overdue there', async () => {
    const w = await workspaceOn(SECOND);
    const client = await createClient(w.key);
    const rin = await call('POST', '/v1/recurring-invoices', { key: w.key, body: { client_id: client.id, interval: 'month', start_date: todayIn('UTC'), line_items: oneLine } });
    expect(rin.status).toBe(201);
    const late = await createSentInvoice(w.key, { client_id: client.id, issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });

    await runScheduled();

    const issued = (await call('GET', `/v1/invoices?recurring_invoice_id=${rin.body.id}`, { key: w.key })).body.data;
    expect(issued).toHaveLength(1);
    expect(await rowsById('invoices', issued[0].id)).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });
    const overdue = await eventsOf(w.key, 'invoice.overdue');
    expect(overdue.map((e: any) => e.data.object.id)).toEqual([late.id]);
    expect(await rowsById('events', overdue[0]!.id)).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });
  });
});

describe('queues for a workspace on the second database', () => {
  it('names the database in a transfer\'s message, and the consumer pays it out there', async () => {
    await putRates({ EUR: 0.9213 });
    const w = await workspaceOn(SECOND);
    const bodies = captured(env.TRANSFERS_QUEUE);
    const transfer = await sendTransfer(w.key);
    expect(bodies).toEqual([{ transfer_id: transfer.id, database: SECOND }]);
    await deliver('workspace-transfers', [{ id: 't1', body: bodies[0] }]);
    expect((await call('GET', `/v1/remit/transfers/${transfer.id}`, { key: w.key })).body.status).toBe('completed');
    expect(await rowsById('transfers', transfer.id)).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });
    // The same message without its database finds nothing on DB and changes nothing.
    const elsewhere = await deliver('workspace-transfers', [{ id: 't2', body: { transfer_id: transfer.id } }]);
    expect(elsewhere.retryMessages).toEqual([]);
  });

  it('delivers the webhooks of its events from its database', async () => {
    const received = receiver();
    const w = await workspaceOn(SECOND);
    const bodies = captured(env.WEBHOOKS_QUEUE);
    const endpoint = await createEndpoint(w.key, { events: ['client.created'] });
    const client = await createClient(w.key);
    expect(bodies).toEqual([{ delivery_id: expect.stringMatching(/^whd_/), database: SECOND }]);
    await deliver('workspace-webhooks', [{ id: 'w1', body: bodies[0] }]);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body).data.object.id).toBe(client.id);
    const deliveries = (await call('GET', `/api/webhook-endpoints/${endpoint.id}/deliveries`, { key: w.key })).body.data;
    expect(deliveries.map((d: { status: string }) => d.status)).toEqual(['succeeded']);
    expect(await rowsById('webhook_deliveries', deliveries[0].id)).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });

    // A test event goes on the queue at once too, from the workspace's database.
    const tested = await call('POST', `/api/webhook-endpoints/${endpoint.id}/test`, { key: w.key });
    expect(tested.status).toBe(202);
    expect(bodies.slice(1)).toEqual([{ delivery_id: tested.body.delivery_id, database: SECOND }]);
  });
});

describe('the directory and a workspace on the second database', () => {
  it('moves member events there, with the new member\'s user row, so the member can make records', async () => {
    const w = await workspaceOn(SECOND);
    const member = await addMember(w.key, 'member');
    const added = await eventsOf(w.key, 'member.added');
    expect(added).toHaveLength(1);
    expect(await rowsById('events', added[0]!.id)).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });
    expect((await rowsById('users', member.id)).DB_WORKSPACES_2).toBe(1);
    const theirs = await createClient(member.key, { name: 'Made by the new member' });
    expect(await rowsById('clients', theirs.id)).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });

    const membership = (await call('GET', '/api/workspace/members', { key: w.key })).body.data.find((m: { user: { id: string } }) => m.user.id === member.id);
    expect((await call('PATCH', `/api/workspace/members/${membership.id}`, { key: w.key, body: { role: 'viewer' } })).status).toBe(200);
    expect(await eventsOf(w.key, 'member.role_changed')).toHaveLength(1);
    const left = await env.DB.prepare('SELECT count(*) AS n FROM events WHERE workspace_id = ?').bind(w.id).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it('relays on the cron what a failed request left in the directory, copying the user it names', async () => {
    const w = await workspaceOn(SECOND);
    const newcomer = await createUser('Newcomer');
    const data = JSON.stringify({ object: { id: 'mem_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', user: { id: newcomer.id, name: 'Newcomer', email: newcomer.email }, role: 'member', created_at: new Date().toISOString() } });
    await env.DB.prepare(
      `INSERT INTO events (id, workspace_id, type, actor_type, actor_id, actor_name, object_id, summary, data, created_at)
       VALUES ('evt_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', ?, 'member.added', 'user', NULL, 'Newcomer', 'mem_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', 'Newcomer joined', ?, ?)`,
    ).bind(w.id, data, new Date().toISOString()).run();

    await runScheduled();

    expect(await rowsById('events', 'evt_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7')).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });
    expect((await rowsById('users', newcomer.id)).DB_WORKSPACES_2).toBe(1);
    expect((await eventsOf(w.key, 'member.added')).map((e) => e.id)).toContain('evt_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7');
  });

  it('copies settings to the workspace\'s database, where numbering and sending read them', async () => {
    const w = await workspaceOn(SECOND);
    const patched = await call('PATCH', '/api/workspace', { key: w.key, body: { invoice_prefix: 'W2-', issuer: { legal_name: 'Second Studio GmbH' } } });
    expect(patched.status).toBe(200);
    const sent = await createSentInvoice(w.key);
    expect(sent.number).toBe('W2-000001');
    expect(sent.issuer.legal_name).toBe('Second Studio GmbH');
    expect((await call('GET', '/api/workspace', { key: w.key })).body.invoice_prefix).toBe('W2-');
  });

  // Rendering the PDF takes a few seconds of CPU; on a busy machine several times that.
  it('serves the hosted page and PDF of an invoice on the second database', { timeout: 120_000 }, async () => {
    const w = await workspaceOn(SECOND);
    const sent = await createSentInvoice(w.key);
    const path = new URL(sent.hosted_url).pathname;
    const page = await call('GET', path);
    expect(page.status).toBe(200);
    expect(page.body).toContain(sent.number);
    expect((await call('GET', `${path}/pdf`)).status).toBe(200);
  });

  it('answers the bookmark of the workspace\'s database, and starts there with it', async () => {
    const w = await workspaceOn(SECOND);
    const created = await call('POST', '/v1/clients', { key: w.key, body: { name: 'Bookmarked' } });
    const bookmark = created.headers.get('X-D1-Bookmark');
    expect(bookmark).toBeTruthy();
    const second = vi.spyOn(env.DB_WORKSPACES_2, 'withSession');
    const directory = vi.spyOn(env.DB, 'withSession');
    const read = await call('GET', `/v1/clients/${created.body.id}`, { key: w.key, headers: { 'X-D1-Bookmark': bookmark! } });
    expect(read.body.name).toBe('Bookmarked');
    expect(second.mock.calls.map(([start]) => start)).toEqual([bookmark]);
    // The directory's session starts at its primary: the bookmark is not about it.
    expect(directory.mock.calls.map(([start]) => start)).toEqual(['first-primary']);
  });

  it('answers a bookmark of the workspace\'s database even when a request reads only the directory', async () => {
    const w = await workspaceOn(SECOND);
    for (const path of ['/api/me', '/api/keys', '/api/workspace/members', '/api/workspaces']) {
      const res = await call('GET', path, { key: w.key });
      expect(res.status).toBe(200);
      expect(res.headers.get('X-D1-Bookmark'), path).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);
    }
  });
});

describe('WORKSPACE_DATABASES', () => {
  it('refuses a name that is not a D1 binding: 500 without detail, the variable named in the log', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request('https://workspace.test/health'), { ...env, WORKSPACE_DATABASES: 'DB,RATES_KV' } as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('RATES_KV');
    expect(logged.mock.calls.flat().join(' ')).toContain('WORKSPACE_DATABASES');
  });
});
