// §5: the dashboard's tax_collected is the tax share of what was collected (each payment split
// between net and tax in its invoice's proportion, half away from zero), and profit is net of it.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

async function sentInvoice(key: string, clientId: string, line: { quantity: number; unit_amount: number; tax_rate: number }) {
  const created = await call('POST', '/v1/invoices', {
    key,
    body: { client_id: clientId, issue_date: '2025-01-02', due_date: '2025-12-31', line_items: [{ description: 'Design work', ...line }] },
  });
  expect(created.status).toBe(201);
  expect((await call('POST', `/v1/invoices/${created.body.id}/send`, { key, body: { email: false } })).status).toBe(200);
  return created.body;
}

const pay = async (key: string, id: string, amount: number, paid_on: string) => {
  const res = await call('POST', `/v1/invoices/${id}/payments`, { key, body: { amount, paid_on } });
  expect(res.status).toBe(200);
};

const totals = async (key: string, query: string) => (await call('GET', `/api/workflow/dashboard?${query}`, { key })).body.totals;

describe('tax collected', () => {
  it('splits each payment between net and tax, and takes the tax out of profit', async () => {
    await putRates({ EUR: 0.8 });
    const user = await createUser();
    const client = await createClient(user.key);
    // 100.00 at 19 %: total 119.00, of which 19.00 tax.
    const a = await sentInvoice(user.key, client.id, { quantity: 1, unit_amount: 10_000, tax_rate: 19 });
    expect([a.tax, a.total]).toEqual([1_900, 11_900]);
    await pay(user.key, a.id, 3_333, '2025-01-20'); // 3333 × 1900 / 11900 = 532.16 → 532
    await pay(user.key, a.id, 5_000, '2025-02-03'); // 798.32 → 798
    await pay(user.key, a.id, 3_567, '2025-03-31'); // 569.51 → 570
    // 0.01 at 100 %: total 0.02; paying 0.01 is exactly half a cent of tax, rounded away from zero.
    const b = await sentInvoice(user.key, client.id, { quantity: 1, unit_amount: 1, tax_rate: 100 });
    await pay(user.key, b.id, 1, '2025-02-10');
    // A tax-free invoice adds nothing to tax collected.
    const c = await sentInvoice(user.key, client.id, { quantity: 1, unit_amount: 5_000, tax_rate: 0 });
    await pay(user.key, c.id, 5_000, '2025-03-01');
    expect((await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 1_000, incurred_on: '2025-02-15' } })).status).toBe(201);

    // Whole months (read from the monthly roll-ups).
    expect(await totals(user.key, 'from=2025-01-01&to=2025-03-31')).toMatchObject({
      collected: 11_900 + 1 + 5_000,
      tax_collected: 532 + 798 + 570 + 1,
      expenses: 1_000,
      profit: 16_901 - 1_901 - 1_000,
    });
    // Cut months (edge days read from the payments themselves) give the same per-payment shares.
    expect(await totals(user.key, 'from=2025-01-15&to=2025-02-05')).toMatchObject({ collected: 8_333, tax_collected: 532 + 798, profit: 8_333 - 1_330 });
    expect(await totals(user.key, 'from=2025-02-04&to=2025-03-31')).toMatchObject({ collected: 3_567 + 1 + 5_000, tax_collected: 571, expenses: 1_000 });
    // Converted like the other totals: 19.01 USD of tax → 15.21 EUR (15.208, half away from zero).
    expect(await totals(user.key, 'from=2025-01-01&to=2025-03-31&currency=EUR')).toMatchObject({ tax_collected: 1_521 });
  });

  it('fills the tax share of a payment row written without one, and keeps the roll-up in step on delete', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const a = await sentInvoice(user.key, client.id, { quantity: 1, unit_amount: 10_000, tax_rate: 19 });
    const workspaceId = (await call('GET', '/api/workspace', { key: user.key })).body.id;
    // A writer that knows nothing of payments.tax (an older release, an import).
    await env.DB.prepare(
      "INSERT INTO payments (id, user_id, workspace_id, invoice_id, amount, currency, paid_on, created_at) VALUES ('pay_raw', ?, ?, ?, 5950, 'USD', '2025-04-10', '2025-04-10T00:00:00.000Z')",
    ).bind(user.id, workspaceId, a.id).run();
    expect(await env.DB.prepare("SELECT tax FROM payments WHERE id = 'pay_raw'").first('tax')).toBe(950);
    expect(await totals(user.key, 'from=2025-04-01&to=2025-04-30')).toMatchObject({ collected: 5_950, tax_collected: 950 });
    await env.DB.prepare("DELETE FROM payments WHERE id = 'pay_raw'").run();
    expect(await totals(user.key, 'from=2025-04-01&to=2025-04-30')).toMatchObject({ collected: 0, tax_collected: 0, profit: 0 });
  });
});
