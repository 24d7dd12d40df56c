// Invoices in zero- and three-decimal currencies, through the worker.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';

describe('invoices across minor units', () => {
  it('bills in yen, where the minor unit is the yen', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'JPY' });
    const res = await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: [{ description: 'Consulting', quantity: 2.5, unit_amount: 12_345, tax_rate: 10 }] },
    });
    // 2.5 × 12345 = 30862.5 → 30863 yen; tax 3086.3 → 3086
    expect(res.body).toMatchObject({ currency: 'JPY', subtotal: 30_863, tax: 3_086, total: 33_949 });
  });

  it('bills in Kuwaiti dinar, to the fils', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'KWD' });
    const res = await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: [{ description: 'Audit', quantity: 0.333, unit_amount: 1_500, tax_rate: 5.125 }] },
    });
    // 0.333 × 1.500 KWD = 0.4995 KWD = 499.5 fils → 500; tax 500 × 5.125 % = 25.625 → 26
    expect(res.body).toMatchObject({ currency: 'KWD', subtotal: 500, tax: 26, total: 526 });
  });

  it('takes the largest invoice: 100 lines at the largest amount', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const line = { description: 'Big', quantity: 1, unit_amount: 10_000_000_000_000, tax_rate: 100 };
    const res = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: Array(100).fill(line) } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ subtotal: 1e15, tax: 1e15, total: 2e15, amount_due: 2e15 });
    expect(res.body.line_items).toHaveLength(100);
    await call('POST', `/v1/invoices/${res.body.id}/send`, { key: user.key });
    const paid = await call('POST', `/v1/invoices/${res.body.id}/payments`, { key: user.key, body: { amount: 2e15 } });
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 2e15, amount_due: 0 });
    const tooBig = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [{ ...line, quantity: 1.001 }] } });
    expect(tooBig.status).toBe(422);
  });
});
