// GET /api/events and the 30 days it keeps: filters by type and by instant (strictly after),
// pages with a cursor, and the cron deletes what is older in bounded chunks.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import { runScheduled } from '../helpers/worker';

const DAY_MS = 86_400_000;
const types = (res: { body: { data: { type: string }[] } }) => res.body.data.map((e) => e.type);

describe('the event record', () => {
  it('filters by type and by creation instant, strictly after it', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { name: 'First' });
    const firstEvent = (await call('GET', '/api/events', { key: user.key })).body.data[0];
    await call('PATCH', `/v1/clients/${client.id}`, { key: user.key, body: { name: 'Renamed' } });
    await createClient(user.key, { name: 'Second' });

    expect(types(await call('GET', '/api/events', { key: user.key }))).toEqual(['client.created', 'client.updated', 'client.created']);
    expect(types(await call('GET', '/api/events?type=client.updated', { key: user.key }))).toEqual(['client.updated']);
    const after = await call('GET', `/api/events?created_after=${encodeURIComponent(firstEvent.created_at)}`, { key: user.key });
    expect(after.body.data.map((e: { id: string }) => e.id)).not.toContain(firstEvent.id);
    expect(types(after)).toEqual(['client.created', 'client.updated']);

    const one = await call('GET', `/api/events/${firstEvent.id}`, { key: user.key });
    expect(one.body).toEqual(firstEvent);
    expect(one.body.data.object).toMatchObject({ id: client.id, name: 'First' });
  });

  it('carries the payment beside the invoice on invoice.payment_recorded', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const invoice = (await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: [{ description: 'Design work', quantity: 1, unit_amount: 10_000, tax_rate: 19 }] },
    })).body;
    await call('POST', `/v1/invoices/${invoice.id}/send`, { key: user.key, body: { email: false } });
    const pay = (amount: number, extra = {}) => call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount, paid_on: '2026-01-15', ...extra } });
    await pay(4_000, { method: 'bank_transfer', reference: 'SEPA 123' });
    await pay(7_900);
    const recorded = (await call('GET', '/api/events?type=invoice.payment_recorded', { key: user.key })).body.data;
    expect(recorded.map((e: { data: { payment: unknown } }) => e.data.payment)).toEqual([
      { id: expect.stringMatching(/^pay_/), invoice_id: invoice.id, amount: 7_900, tax: 1_261, currency: 'USD', paid_on: '2026-01-15', method: null, reference: null, source: 'manual', provider: null, provider_payment_id: null, amount_refunded: 0, created_at: expect.any(String) },
      { id: expect.stringMatching(/^pay_/), invoice_id: invoice.id, amount: 4_000, tax: 639, currency: 'USD', paid_on: '2026-01-15', method: 'bank_transfer', reference: 'SEPA 123', source: 'manual', provider: null, provider_payment_id: null, amount_refunded: 0, created_at: expect.any(String) },
    ]);
    expect(recorded[0].data.object).toMatchObject({ id: invoice.id, status: 'paid', amount_paid: 11_900 });
    // Other events carry no payment.
    const paid = (await call('GET', '/api/events?type=invoice.paid', { key: user.key })).body.data[0];
    expect(Object.keys(paid.data)).toEqual(['object']);
  });

  it('pages newest first with a cursor', async () => {
    const user = await createUser();
    for (const name of ['a', 'b', 'c']) await createClient(user.key, { name });
    const first = await call('GET', '/api/events?limit=2', { key: user.key });
    expect(first.body.has_more).toBe(true);
    const second = await call('GET', `/api/events?limit=2&cursor=${first.body.next_cursor}`, { key: user.key });
    expect([...first.body.data, ...second.body.data].map((e: { data: { object: { name: string } } }) => e.data.object.name)).toEqual(['c', 'b', 'a']);
    expect(second.body.has_more).toBe(false);
  });

  it('refuses an unknown type and a malformed instant with 422 naming them', async () => {
    const user = await createUser();
    const res = await call('GET', '/api/events?type=client.exploded&created_after=yesterday', { key: user.key });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res).sort()).toEqual(['created_after', 'type']);
  });

  it('keeps 30 days: the cron deletes older events in chunks and keeps the rest', async () => {
    const user = await createUser();
    await createClient(user.key);
    const workspaceId = (await call('GET', '/api/workspace', { key: user.key })).body.id;
    // 1,200 events from 31 days ago: more than one chunk.
    const old = new Date(Date.now() - 31 * DAY_MS).toISOString();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
       INSERT INTO events (id, workspace_id, type, actor_type, actor_id, actor_name, object_id, summary, data, created_at)
       SELECT 'evt_00000000000000' || printf('%012d', i), ?, 'client.updated', 'system', NULL, 'test', 'cli_x', 'old', '{"object":{"id":"cli_x"}}', ? FROM n`,
    ).bind(workspaceId, old).run();
    const count = async () => (await env.DB.prepare('SELECT count(*) AS n FROM events WHERE workspace_id = ?').bind(workspaceId).first<{ n: number }>())!.n;
    expect(await count()).toBe(1201);
    await runScheduled();
    expect(await count()).toBe(1);
    expect(types(await call('GET', '/api/events', { key: user.key }))).toEqual(['client.created']);
  });
});
