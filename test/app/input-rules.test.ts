// The text and date rules of §1, at their edges: control characters and bidirectional overrides
// are refused (tab and newline only in long texts), calendar dates lie in 1970-01-01..2199-12-31,
// and a payment is not dated later than tomorrow. Each refusal is a 422 naming the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../../src/lib/time';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createSentInvoice, createUser, type TestUser } from '../helpers/factories';

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

const refused = async (res: Awaited<ReturnType<typeof call>>, path: string) => {
  expectError(res, 422, 'validation_failed');
  expect(errorPaths(res)).toEqual([path]);
};

describe('text', () => {
  it.each([
    ['a bell', 'Acme\u0007'],
    ['a C1 control', 'Acme\u0085Ltd'],
    ['a right-to-left override', 'Acme \u202Egpj.exe'],
    ['an isolate', 'Acme \u2066x\u2069'],
    ['a newline in a one-line field', 'Acme\nLtd'],
  ])('refuses %s in a name', async (_, name) => {
    await refused(await call('POST', '/v1/clients', { key: user.key, body: { name } }), 'name');
  });

  it('lets long texts hold tab and newline, and nothing else of the kind', async () => {
    const client = await createClient(user.key, { notes: 'Line one\n\tindented line two' });
    expect(client.notes).toBe('Line one\n\tindented line two');
    await refused(await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme', notes: 'Line\r\nbreak' } }), 'notes');
    await refused(await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme', notes: 'fine \u202D not fine' } }), 'notes');
    expect((await call('POST', '/v1/clients', { key: user.key, body: { name: 'Zoë Ångström 北京 🚀' } })).status).toBe(201);
  });
});

describe('dates', () => {
  const lines = [{ description: 'Work', quantity: 1, unit_amount: 100 }];
  it.each([
    ['1969-12-31', 422],
    ['1970-01-01', 201],
    ['2199-12-31', 201],
    ['2200-01-01', 422],
  ])('takes an issue date of %s with %i', async (date, status) => {
    const client = await createClient(user.key);
    const res = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, issue_date: date, due_date: date, line_items: lines } });
    expect(res.status).toBe(status);
    if (status === 422) expect(errorPaths(res).sort()).toEqual(['due_date', 'issue_date']);
  });

  it('takes a payment dated tomorrow but not the day after', async () => {
    const invoice = await createSentInvoice(user.key);
    const tomorrow = addDays(todayUtc(), 1);
    await refused(await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 100, paid_on: addDays(tomorrow, 1) } }), 'paid_on');
    expect((await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 100, paid_on: tomorrow } })).status).toBe(200);
  });
});
