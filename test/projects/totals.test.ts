import { describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createClient, createProject, createSentInvoice, createUser } from '../helpers/factories';
import { deleteRates, putRates } from '../helpers/rates';

describe('project totals', () => {
  it('add up invoices, payments and expenses in USD', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const project = await createProject(user.key, { client_id: client.id });
    const invoice = await createSentInvoice(user.key, { client_id: client.id, project_id: project.id }); // 1000.00
    await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 25_000 } });
    await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 4_999, project_id: project.id } });
    // A draft does not count as invoiced.
    await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, project_id: project.id, line_items: [{ description: 'x', quantity: 1, unit_amount: 777 }] } });

    const res = await call('GET', `/v1/projects/${project.id}`, { key: user.key });
    expect(res.body.totals).toEqual({ currency: 'USD', invoiced: 100_000, paid: 25_000, expenses: 4_999, input_tax: 0, profit: 20_001, unbilled_amount: 0 });
  });

  it('convert other currencies at the cached rates, half away from zero', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'EUR' });
    const project = await createProject(user.key, { client_id: client.id });
    await putRates({ EUR: 0.8, JPY: 150 });
    await createSentInvoice(user.key, { client_id: client.id, project_id: project.id }); // EUR 1000.00 → USD 1250.00
    await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'travel', amount: 100, currency: 'JPY', project_id: project.id } }); // ¥100 → $0.666… → 67 cents
    const res = await call('GET', `/v1/projects/${project.id}`, { key: user.key });
    expect(res.body.totals).toEqual({ currency: 'USD', invoiced: 125_000, paid: 0, expenses: 67, input_tax: 0, profit: -67, unbilled_amount: 0 });
  });

  it('answer 503 when a conversion is needed and no rates exist', async () => {
    const user = await createUser();
    await deleteRates();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const upstream = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Promise.reject(new TypeError('offline')));
    const project = await createProject(user.key);
    await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'travel', amount: 100, currency: 'GBP', project_id: project.id } });
    expectError(await call('GET', `/v1/projects/${project.id}`, { key: user.key }), 503, 'rates_unavailable');
    expect(upstream).toHaveBeenCalledOnce(); // the first-fill attempt
    vi.restoreAllMocks();
  });
});
