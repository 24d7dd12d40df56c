// §1: a money-bearing record in a currency the current rates do not contain is a 422 on
// `currency`, so every stored amount can be converted.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiResponse, call, errorPaths, expectError } from '../helpers/api';
import { createClient, createInvoice, createProject, createUser, oneLine } from '../helpers/factories';
import { deleteRates, mockUpstream, putRates, RATES_KEY, upstreamAnswer } from '../helpers/rates';
import { runScheduled } from '../helpers/worker';

const refusedOnCurrency = (res: ApiResponse) => {
  expectError(res, 422, 'validation_failed');
  expect(errorPaths(res)).toEqual(['currency']);
  expect(res.body.error.details[0].message).toContain('No exchange rate');
};

describe('currencies without a rate', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

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
    await deleteRates();
    const user = await createUser();
    const client = await createClient(user.key);
    expect((await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, currency: 'SEK', line_items: oneLine } })).status).toBe(201);
    await putRates({});
    expect((await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, currency: 'USD', line_items: oneLine } })).status).toBe(201);
  });

  it('takes a currency the rates gain: at once after a refresh in this runtime, within 30 s of one elsewhere', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await putRates({ EUR: 0.9 }, new Date(Date.now() - 3_600_000));
    const user = await createUser();
    const client = await createClient(user.key);
    const inSek = () => call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, currency: 'SEK', line_items: oneLine } });
    refusedOnCurrency(await inSek());

    mockUpstream(() => Response.json(upstreamAnswer({ EUR: 0.9, SEK: 10.5 }, Math.floor(Date.now() / 1000))));
    await runScheduled();
    expect((await inSek()).status).toBe(201);

    // Another runtime's refresh drops SEK: this one goes on with the rates it holds for at most 30 s.
    vi.useFakeTimers({ toFake: ['Date'] });
    const at = new Date().toISOString();
    await env.RATES_KV.put(RATES_KEY, JSON.stringify({ base: 'USD', rates: { USD: 1, EUR: 0.9 }, as_of: at, fetched_at: at, source: 'test' }));
    expect((await inSek()).status).toBe(201);
    vi.setSystemTime(Date.now() + 30_001);
    refusedOnCurrency(await inSek());
  });
});
