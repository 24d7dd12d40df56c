// §1: text that is not text (a lone surrogate) is refused wherever it is sent; a range filter that
// ends before it starts is a 422; a date the server would compute past 2199-12-31 is a 422 naming
// the field it comes from; every zone name the runtime's Intl takes is a time zone; a trailing
// slash changes nothing.
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createUser, oneLine } from '../helpers/factories';

/** A request whose JSON text is sent exactly as written (JSON.stringify would escape nothing wrong). */
const raw = (key: string, method: string, path: string, json: string) => call(method, path, { key, body: json });

describe('lone surrogates', () => {
  it('are a 422 naming the field, in any field, at any depth, and nothing is stored', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const named = await raw(user.key, 'POST', '/v1/clients', '{"name":"Acme \\ud800 Ltd"}');
    expectError(named, 422, 'validation_failed');
    expect(errorPaths(named)).toEqual(['name']);
    const line = await raw(user.key, 'POST', '/v1/invoices', `{"client_id":"${client.id}","line_items":[{"description":"Design \\udc00","quantity":1,"unit_amount":100}]}`);
    expectError(line, 422, 'validation_failed');
    expect(errorPaths(line)).toEqual(['line_items.0.description']);
    expect((await call('GET', '/v1/clients', { key: user.key })).body.data).toHaveLength(1);
    expect((await call('GET', '/v1/invoices', { key: user.key })).body.data).toHaveLength(0);
  });

  it('come after the path: a malformed id is a 404 whatever the body holds', async () => {
    const user = await createUser();
    expectError(await raw(user.key, 'PATCH', '/v1/clients/%00', '{"name":"\\ud800"}'), 404, 'not_found');
  });

  it('leave a surrogate pair (an emoji) alone', async () => {
    const user = await createUser();
    const res = await raw(user.key, 'POST', '/v1/clients', '{"name":"Acme \\ud83d\\ude80"}');
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Acme 🚀');
  });
});

describe('range filters', () => {
  it('refuse a start after the end, on every list that takes a range', async () => {
    const user = await createUser();
    for (const [path, from] of [
      ['/v1/invoices?issued_from=2026-05-02&issued_to=2026-05-01', 'issued_from'],
      ['/api/workflow/expenses?from=2026-05-02&to=2026-05-01', 'from'],
      ['/api/workflow/dashboard?from=2026-05-02&to=2026-05-01', 'from'],
    ] as const) {
      const res = await call('GET', path, { key: user.key });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), path).toEqual([from]);
    }
    expect((await call('GET', '/v1/invoices?issued_from=2026-05-01&issued_to=2026-05-01', { key: user.key })).status).toBe(200);
    expect((await call('GET', '/api/workflow/expenses?from=2026-05-01&to=2026-05-01', { key: user.key })).status).toBe(200);
  });
});

describe('dates the server computes', () => {
  it('refuse an invoice whose default due date would pass 2199-12-31, naming issue_date', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const late = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, issue_date: '2199-12-15', line_items: oneLine } });
    expectError(late, 422, 'validation_failed');
    expect(errorPaths(late)).toEqual(['issue_date']);
    const given = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, issue_date: '2199-12-15', due_date: '2199-12-31', line_items: oneLine } });
    expect(given.status).toBe(201);
    expect((await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, issue_date: '2199-12-01', line_items: oneLine } })).body.due_date).toBe('2199-12-31');
  });

  it('refuse a recurring invoice whose first invoice would be due after 2199-12-31, and end a schedule there', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const setUp = (body: Record<string, unknown>) =>
      call('POST', '/v1/recurring-invoices', { key: user.key, body: { client_id: client.id, line_items: oneLine, interval: 'week', ...body } });
    const late = await setUp({ start_date: '2199-12-20', due_in_days: 30 });
    expectError(late, 422, 'validation_failed');
    expect(errorPaths(late)).toEqual(['start_date']);
    const weekly = await setUp({ start_date: '2199-12-17', due_in_days: 5 });
    expect(weekly.status).toBe(201);
    // 12-17 (due 12-22) and 12-24 (due 12-29) fit; 12-31 would be due 2200-01-05.
    expect(weekly.body.upcoming).toEqual(['2199-12-17', '2199-12-24']);
    const longer = await call('PATCH', `/v1/recurring-invoices/${weekly.body.id}`, { key: user.key, body: { due_in_days: 20 } });
    expectError(longer, 422, 'validation_failed');
    expect(errorPaths(longer)).toEqual(['due_in_days']);
  });
});

describe('time zones', () => {
  it('accept every name the runtime knows, links included, and refuse offsets and made-up names', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    for (const zone of ['US/Eastern', 'Etc/GMT+12', 'Asia/Calcutta', 'Europe/Kyiv', 'UTC']) {
      const res = await call('PATCH', '/api/workspace', { key: user.key, body: { time_zone: zone } });
      expect(res.status, zone).toBe(200);
      expect(res.body.time_zone).toBe(zone);
    }
    const rin = await call('POST', '/v1/recurring-invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: oneLine, interval: 'month', start_date: '2199-01-01', time_zone: 'US/Pacific' },
    });
    expect(rin.status).toBe(201);
    expect(rin.body.time_zone).toBe('US/Pacific');
    for (const zone of ['Mars/Olympus_Mons', '+05:00', 'Europe/Berlin ', '']) {
      const res = await call('PATCH', '/api/workspace', { key: user.key, body: { time_zone: zone } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), zone).toEqual(['time_zone']);
    }
  });
});

describe('a trailing slash', () => {
  it('is the same path without it', async () => {
    const user = await createUser();
    const created = await call('POST', '/v1/clients/', { key: user.key, body: { name: 'Acme' } });
    expect(created.status).toBe(201);
    const list = await call('GET', '/v1/clients/', { key: user.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
    expect((await call('GET', `/v1/clients/${created.body.id}/`, { key: user.key })).body.id).toBe(created.body.id);
    // Known path, other method: still 405 before any key check.
    const put = await call('PUT', '/v1/clients/', {});
    expectError(put, 405, 'method_not_allowed');
    expect(put.headers.get('Allow')).toContain('GET');
    expectError(await call('GET', '/v1/clients/', {}), 401, 'unauthorized');
  });
});
