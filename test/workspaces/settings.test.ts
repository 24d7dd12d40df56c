// Workspace settings: merged at the top, nested objects replaced whole, every value validated
// with a 422 that names the field and changes nothing; new workspaces come with an owner key.
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createClient, createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

describe('workspace settings', () => {
  it('shows the defaults, merges top-level fields and replaces nested objects whole', async () => {
    const owner = await createUser('Settings Owner');
    const initial = (await call('GET', '/api/workspace', { key: owner.key })).body;
    expect(initial).toMatchObject({
      name: 'Settings Owner', role: 'owner', time_zone: 'UTC', locale: 'en-US', invoice_prefix: 'INV-', payment_instructions: null,
      reminders: { enabled: false, days_after_due: [3, 10] },
      issuer: { legal_name: null, email: null, address: { line1: null, line2: null, city: null, region: null, postal_code: null, country: null }, tax_id: null },
    });
    const patched = await call('PATCH', '/api/workspace', {
      key: owner.key,
      body: { time_zone: 'Europe/Berlin', locale: 'de-de', issuer: { legal_name: 'Studio GmbH', address: { city: 'Berlin', country: 'DE' } }, reminders: { enabled: true } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Settings Owner', time_zone: 'Europe/Berlin', locale: 'de-DE',
      issuer: { legal_name: 'Studio GmbH', email: null, address: { city: 'Berlin', country: 'DE', line1: null } },
      reminders: { enabled: true, days_after_due: [3, 10] },
    });
    // Sending issuer again replaces it: what is left out is cleared.
    const replaced = await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer: { tax_id: 'DE123' } } });
    expect(replaced.body.issuer).toMatchObject({ legal_name: null, tax_id: 'DE123' });
    expect(replaced.body.time_zone).toBe('Europe/Berlin');
  });

  it.each([
    ['time_zone', { time_zone: 'Mars/Olympus' }],
    ['time_zone', { time_zone: '+05:00' }],
    ['locale', { locale: 'not a locale!' }],
    ['invoice_prefix', { invoice_prefix: 'INV 2026 ' }],
    ['invoice_prefix', { invoice_prefix: '' }],
    ['reminders.days_after_due', { reminders: { days_after_due: [3, 3] } }],
    ['reminders.days_after_due', { reminders: { days_after_due: [1, 2, 3, 4, 5, 6] } }],
    ['reminders.days_after_due.0', { reminders: { days_after_due: [91] } }],
    ['colour', { colour: 'blue' }],
  ])('refuses a bad %s with a 422 naming it, changing nothing', async (path, body) => {
    const owner = await createUser();
    const before = (await call('GET', '/api/workspace', { key: owner.key })).body;
    const res = await call('PATCH', '/api/workspace', { key: owner.key, body: { name: 'Renamed', ...body } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual([path]);
    expect((await call('GET', '/api/workspace', { key: owner.key })).body).toEqual(before);
  });

  it('lets admins change settings and no one below', async () => {
    const owner = await createUser();
    const admin = await addMember(owner.key, 'admin');
    const member = await addMember(owner.key, 'member');
    expect((await call('PATCH', '/api/workspace', { key: admin.key, body: { payment_instructions: 'IBAN DE89…' } })).status).toBe(200);
    const refused = await call('PATCH', '/api/workspace', { key: member.key, body: { payment_instructions: 'Mine' } });
    expectError(refused, 403, 'forbidden');
    expect(refused.body.error.message).toContain('admin');
    expect((await call('GET', '/api/workspace', { key: member.key })).body).toMatchObject({ payment_instructions: 'IBAN DE89…', role: 'member' });
  });

  it('numbers invoices with the workspace prefix, per workspace', async () => {
    const owner = await createUser();
    await call('PATCH', '/api/workspace', { key: owner.key, body: { invoice_prefix: 'ST/2026/' } });
    const client = await createClient(owner.key);
    const line_items = [{ description: 'Work', quantity: 1, unit_amount: 100 }];
    const first = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items } });
    expect(first.body.number).toBe('ST/2026/000001');
    // A hand-picked number ahead of the counter is skipped, not collided with.
    await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items, number: 'ST/2026/000002' } });
    expect((await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items } })).body.number).toBe('ST/2026/000003');
  });

  it('follows the workspace time zone for today and overdue', async () => {
    const owner = await createUser();
    // Pacific/Kiritimati is UTC+14: most of the time its today is UTC's tomorrow.
    await call('PATCH', '/api/workspace', { key: owner.key, body: { time_zone: 'Pacific/Kiritimati' } });
    const client = await createClient(owner.key);
    const invoice = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [{ description: 'Work', quantity: 1, unit_amount: 100 }] } });
    const kiritimatiToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    expect(invoice.body.issue_date).toBe(kiritimatiToday);
  });
});

describe('default currency', () => {
  it('is USD until set, and is the currency of a new client that names none', async () => {
    await putRates({ EUR: 0.92, GBP: 0.79 });
    const owner = await createUser();
    expect((await call('GET', '/api/workspace', { key: owner.key })).body.default_currency).toBe('USD');
    expect((await createClient(owner.key)).currency).toBe('USD');
    const patched = await call('PATCH', '/api/workspace', { key: owner.key, body: { default_currency: 'EUR' } });
    expect(patched.status).toBe(200);
    expect(patched.body.default_currency).toBe('EUR');
    expect((await createClient(owner.key)).currency).toBe('EUR');
    expect((await createClient(owner.key, { currency: 'GBP' })).currency).toBe('GBP');
    // A workspace made later may live in the other database: its own copy of the settings follows.
    const studio = (await call('POST', '/api/workspaces', { key: owner.key, body: { name: 'Second Studio' } })).body;
    await call('PATCH', '/api/workspace', { key: studio.api_key.key, body: { default_currency: 'GBP' } });
    expect((await createClient(studio.api_key.key)).currency).toBe('GBP');
  });

  it.each([
    ['an unknown code', 'XYZ'],
    ['lower case', 'eur'],
    ['a currency the rates do not contain', 'SEK'],
  ])('refuses %s with a 422 naming default_currency', async (_what, default_currency) => {
    await putRates({ EUR: 0.92 });
    const owner = await createUser();
    const res = await call('PATCH', '/api/workspace', { key: owner.key, body: { default_currency } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['default_currency']);
    expect((await call('GET', '/api/workspace', { key: owner.key })).body.default_currency).toBe('USD');
  });
});

describe('creating a workspace', () => {
  it('makes the caller its owner and answers a key that acts in it', async () => {
    const user = await createUser('Founder');
    const res = await call('POST', '/api/workspaces', { key: user.key, body: { name: 'Side Studio' } });
    expect(res.status).toBe(201);
    expect(res.body.workspace).toMatchObject({ name: 'Side Studio', role: 'owner' });
    const key = res.body.api_key.key;
    expect((await call('GET', '/api/workspace', { key })).body.id).toBe(res.body.workspace.id);
    expect((await call('GET', '/v1/clients', { key })).body.data).toEqual([]);
    const mine = (await call('GET', '/api/workspaces', { key: user.key })).body.data;
    expect(mine.map((w: { name: string; role: string }) => [w.name, w.role])).toEqual([['Side Studio', 'owner'], ['Founder', 'owner']]);
    expectError(await call('POST', '/api/workspaces', { key: user.key, body: { name: '' } }), 422, 'validation_failed');
  });
});
