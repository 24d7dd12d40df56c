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

  it('takes the largest invoice: 100 lines, a total of 10^13 minor units tax included, and no unit more', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const line = { description: 'Big', quantity: 1, unit_amount: 50_000_000_000, tax_rate: 100 };
    const res = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: Array(100).fill(line) } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ subtotal: 5e12, tax: 5e12, total: 1e13, amount_due: 1e13 });
    expect(res.body.line_items).toHaveLength(100);
    await call('POST', `/v1/invoices/${res.body.id}/send`, { key: user.key });
    const paid = await call('POST', `/v1/invoices/${res.body.id}/payments`, { key: user.key, body: { amount: 1e13 } });
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 1e13, amount_due: 0 });
    // A total one unit over, and a single line over the largest amount, are both refused.
    const overTotal = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [...Array(99).fill(line), { ...line, unit_amount: 100_000_000_001, tax_rate: 0 }] } });
    expect(overTotal.status).toBe(422); // 99 × 2 × 5·10^10 + 10^11 + 1 = 10^13 + 1
    const tooBig = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [{ ...line, unit_amount: 10_000_000_000_000, quantity: 1.001 }] } });
    expect(tooBig.status).toBe(422);
  });
});
