import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createClient, createUser } from '../helpers/factories';

const LISTINGS = ['/api/workflow', '/v1'];

describe.each(LISTINGS)('clients under %s', (base) => {
  it('creates a client with defaults and reads it back', async () => {
    const user = await createUser();
    const res = await call('POST', `${base}/clients`, {
      key: user.key,
      body: { name: 'Acme GmbH', email: 'Billing@Acme.example', address: { city: 'Berlin', country: 'DE' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Acme GmbH',
      email: 'billing@acme.example',
      currency: 'USD',
      status: 'active',
      address: { line1: null, city: 'Berlin', country: 'DE' },
    });
    expect(res.body.id).toMatch(/^cli_[0-9A-Z]{26}$/);
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const got = await call('GET', `${base}/clients/${res.body.id}`, { key: user.key });
    expect(got.body).toEqual(res.body);
  });

  it('names every invalid field', async () => {
    const user = await createUser();
    const res = await call('POST', `${base}/clients`, {
      key: user.key,
      body: { name: '', currency: 'usd', email: 'nope', address: { country: 'Germany' }, vip: true },
    });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res).sort()).toEqual(['address.country', 'currency', 'email', 'name', 'vip']);
  });

  it('patches only what is sent', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { email: 'a@example.com', currency: 'EUR' });
    const res = await call('PATCH', `${base}/clients/${client.id}`, { key: user.key, body: { status: 'archived', notes: 'Paused' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'archived', notes: 'Paused', email: 'a@example.com', currency: 'EUR', name: client.name });
    expect(res.body.updated_at >= client.updated_at).toBe(true);
    expectError(await call('PATCH', `${base}/clients/${client.id}`, { key: user.key, body: { currency: 'XXX' } }), 422, 'validation_failed');
  });

  it('deletes a client without invoices', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    expect((await call('DELETE', `${base}/clients/${client.id}`, { key: user.key })).status).toBe(204);
    expectError(await call('GET', `${base}/clients/${client.id}`, { key: user.key }), 404, 'not_found');
  });

  it('keeps each user\'s clients to themselves', async () => {
    const [owner, other] = [await createUser(), await createUser()];
    const client = await createClient(owner.key);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine now' }], ['DELETE']] as const) {
      expectError(await call(method, `${base}/clients/${client.id}`, { key: other.key, body }), 404, 'not_found');
    }
    const list = await call('GET', `${base}/clients`, { key: other.key });
    expect(list.body.data).toEqual([]);
    expect((await call('GET', `${base}/clients/${client.id}`, { key: owner.key })).body.name).toBe('Acme Ltd');
  });

  it('answers 404 for an id of the wrong shape', async () => {
    const user = await createUser();
    expectError(await call('GET', `${base}/clients/prj_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7`, { key: user.key }), 404, 'not_found');
    expectError(await call('GET', `${base}/clients/123`, { key: user.key }), 404, 'not_found');
  });

  it('requires a key', async () => {
    await expectKeyRequired('GET', `${base}/clients`);
    await expectKeyRequired('POST', `${base}/clients`, { name: 'x' });
    await expectKeyRequired('GET', `${base}/clients/cli_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7`);
  });
});

describe('client lists', () => {
  it('pages newest first with an opaque cursor, and filters by status and text', async () => {
    const user = await createUser();
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
    for (const name of names) await createClient(user.key, { name, email: `${name.toLowerCase()}@example.com` });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call('GET', `/v1/clients?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: user.key });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((c: { name: string }) => c.name));
      cursor = page.body.next_cursor;
      expect(page.body.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual([...names].reverse());

    const archived = await createClient(user.key, { name: 'Foxtrot', status: 'archived' });
    const onlyArchived = await call('GET', '/v1/clients?status=archived', { key: user.key });
    expect(onlyArchived.body.data.map((c: { id: string }) => c.id)).toEqual([archived.id]);

    const search = await call('GET', '/v1/clients?q=ARL', { key: user.key });
    expect(search.body.data.map((c: { name: string }) => c.name)).toEqual(['Charlie']);
    const byEmail = await call('GET', '/v1/clients?q=delta%40', { key: user.key });
    expect(byEmail.body.data.map((c: { name: string }) => c.name)).toEqual(['Delta']);
    const wildcard = await call('GET', '/v1/clients?q=%25', { key: user.key });
    expect(wildcard.body.data).toEqual([]);
  });

  it('rejects a bad cursor, limit or filter', async () => {
    const user = await createUser();
    for (const query of ['cursor=garbage', 'cursor=eyJpZCI6IngifQ', 'limit=0', 'limit=101', 'limit=abc', 'status=deleted']) {
      const res = await call('GET', `/v1/clients?${query}`, { key: user.key });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual([query.split('=')[0]]);
    }
  });
});
