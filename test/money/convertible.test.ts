// §1: a money-bearing record in a currency the current rates do not contain is a 422 on
// `currency`, so every stored amount can be converted.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type ApiResponse, call, errorPaths, expectError } from '../helpers/api';
import { createClient, createInvoice, createProject, createUser, oneLine } from '../helpers/factories';
import { putRates, RATES_KEY } from '../helpers/rates';

const refusedOnCurrency = (res: ApiResponse) => {
  expectError(res, 422, 'validation_failed');
  expect(errorPaths(res)).toEqual(['currency']);
  expect(res.body.error.details[0].message).toContain('No exchange rate');
};

describe('currencies without a rate', () => {
  it('refuses invoices, expenses and projects in them, on create and on edit, and writes nothing', async () => {
    await putRates({ EUR: 0.9 });
    const user = await createUser();
    const client = await createClient(user.key);
    refusedOnCurrency(await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, currency: 'SEK', line_items: oneLine } }));
    refusedOnCurrency(await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 100, currency: 'SEK' } }));
    refusedOnCurrency(await call('POST', '/v1/projects', { key: user.key, body: { name: 'Nordic', currency: 'SEK' } }));

    const draft = await createInvoice(user.key, { client_id: client.id, currency: 'EUR' });
    refusedOnCurrency(await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { currency: 'SEK' } }));
    const project = await createProject(user.key, { currency: 'EUR' });
    refusedOnCurrency(await call('PATCH', `/v1/projects/${project.id}`, { key: user.key, body: { currency: 'SEK' } }));
    expect((await call('GET', `/v1/invoices/${draft.id}`, { key: user.key })).body.currency).toBe('EUR');
    expect((await call('GET', '/api/workflow/expenses', { key: user.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/events?type=invoice.created', { key: user.key })).body.data).toHaveLength(1);
  });

  it("refuses an invoice that would default to its client's unconvertible currency", async () => {
    await putRates({ EUR: 0.9, SEK: 10 });
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'SEK' });
    await putRates({ EUR: 0.9 });
    refusedOnCurrency(await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: oneLine } }));
  });

  it('takes USD always, and any currency while no rates were ever fetched', async () => {
    await env.RATES_KV.delete(RATES_KEY);
    const user = await createUser();
    const client = await createClient(user.key);
    expect((await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, currency: 'SEK', line_items: oneLine } })).status).toBe(201);
    await putRates({});
    expect((await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, currency: 'USD', line_items: oneLine } })).status).toBe(201);
  });
});
