// A money field that gets a decimal or a string says what to send instead: amounts are integers
// in minor units (1250 for 12.50), in the 422's detail for that field.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createClient, createSentInvoice, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { recipient } from '../helpers/transfers';

let owner: TestUser;
let clientId: string;
let invoiceId: string;
beforeAll(async () => {
  await putRates({ EUR: 0.92 });
  owner = await createUser();
  clientId = (await createClient(owner.key)).id;
  invoiceId = (await createSentInvoice(owner.key, { client_id: clientId })).id;
});

const line = (unit_amount: unknown) => ({ description: 'Design work', quantity: 1, unit_amount });

describe('money fields', () => {
  it.each<[string, string, () => { path: string; body: Record<string, unknown>; headers?: Record<string, string> }]>([
    ['a decimal unit_amount', 'line_items.0.unit_amount', () => ({ path: '/v1/invoices', body: { client_id: clientId, line_items: [line(12.5)] } })],
    ['a string unit_amount', 'line_items.0.unit_amount', () => ({ path: '/v1/invoices', body: { client_id: clientId, line_items: [line('12.50')] } })],
    ['a decimal payment amount', 'amount', () => ({ path: `/v1/invoices/${invoiceId}/payments`, body: { amount: 99.99 } })],
    ['a string payment amount', 'amount', () => ({ path: `/v1/invoices/${invoiceId}/payments`, body: { amount: '100' } })],
    ['a decimal expense amount', 'amount', () => ({ path: '/api/workflow/expenses', body: { category: 'software', amount: 19.99 } })],
    ['a decimal budget', 'budget', () => ({ path: '/v1/projects', body: { name: 'Site', budget: 5000.5 } })],
    ['a string hourly_rate', 'hourly_rate', () => ({ path: '/v1/projects', body: { name: 'Site', hourly_rate: '95.00' } })],
    ['a decimal gig budget', 'budget_min', () => ({ path: '/v1/gigs', body: { title: 'Logo', description: 'A logo', skills: ['design'], budget_type: 'fixed', budget_min: 10.5, budget_max: 20000, currency: 'USD' } })],
    ['a decimal transfer amount', 'source_amount', () => ({
      path: '/v1/remit/transfer', headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 1000.25, recipient: recipient() },
    })],
  ])('refuses %s, saying to send minor units', async (_what, field, request) => {
    const { path, body, headers } = request();
    const res = await call('POST', path, { key: owner.key, body, headers });
    expectError(res, 422, 'validation_failed');
    const detail = res.body.error.details.find((d: { path: string }) => d.path === field);
    expect(detail?.message).toContain('integers in minor units: send 1250 for 12.50');
  });
});
