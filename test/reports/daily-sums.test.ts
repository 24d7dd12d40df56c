// §22: the daily sums the profit and loss reads by month (books_daily, books_fx_issue) are kept by
// triggers through every change of the records they sum, and always equal those sums worked out from
// the records themselves.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { pay, sentInvoice } from '../helpers/books';
import { createClient, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

let owner: TestUser;
let workspaceId: string;

/** The sums as books_daily keeps them, and as the records give them (its backfill's own query), without empty rows. */
async function keptAndRecomputed() {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes('books_rollups'))!;
  const backfill = (table: string) => migration.queries.find((q) => q.includes(`INSERT INTO \`${table}\``))!.replace(/^[\s\S]*?INSERT INTO `\w+` \([^)]*\)\s*/, '');
  // By value, in column order: the kept table names its columns, the recomputing query its sums.
  const nonZero = (rows: Record<string, unknown>[]) =>
    rows.filter((row) => Object.values(row).some((value) => typeof value === 'number' && value !== 0)).map((row) => JSON.stringify(Object.values(row))).sort();
  const of = async (sql: string) => nonZero((await env.DB.prepare(sql).all<Record<string, unknown>>()).results.filter((row) => row.workspace_id === workspaceId));
  return {
    daily: { kept: await of('SELECT workspace_id, day, currency, invoiced, credited, received, received_net, refunded_net, spent FROM books_daily'), recomputed: await of(backfill('books_daily')) },
    fx: { kept: await of('SELECT workspace_id, paid_month, currency, issue_day, amount FROM books_fx_issue'), recomputed: await of(backfill('books_fx_issue')) },
  };
}

beforeAll(async () => {
  await putRates({ EUR: 0.9 });
  owner = await createUser();
  workspaceId = (await call('GET', '/api/me', { key: owner.key })).body.workspace.id;
});

describe('the profit and loss\'s daily sums', () => {
  it('follow sending, paying, refunding, crediting, voiding and deleting, and expenses changed and deleted', async () => {
    const k = owner.key;
    const client = await createClient(k, { currency: 'EUR' });
    const line = (unit_amount: number, tax_rate = 19) => [{ description: 'Work', quantity: 1, unit_amount, tax_rate }];
    const a = await sentInvoice(k, { client_id: client.id, issue_date: '2026-03-02', line_items: line(10_000) });
    const b = await sentInvoice(k, { client_id: client.id, issue_date: '2026-03-02', currency: 'USD', line_items: line(20_000, 7) });
    const paid = await pay(k, a.id, 11_900, '2026-03-10');
    await pay(k, b.id, 5_000, '2026-04-01');
    expect((await call('POST', `/v1/invoices/${a.id}/payments/${paid}/refunds`, { key: k, body: { amount: 3_000 } })).status).toBe(201);
    expect((await call('POST', `/v1/invoices/${b.id}/credit-notes`, { key: k, body: { reason: 'other', email: false, lines: [{ description: 'Goodwill', quantity: 1, unit_amount: 1_000, tax_rate: 7 }] } })).status).toBe(201);
    const voided = await sentInvoice(k, { client_id: client.id, issue_date: '2026-03-05', line_items: line(4_000) });
    expect((await call('POST', `/v1/invoices/${voided.id}/void`, { key: k })).status).toBe(200);
    const draft = await call('POST', '/v1/invoices', { key: k, body: { client_id: client.id, issue_date: '2026-03-02', line_items: line(9_999) } });
    expect((await call('DELETE', `/v1/invoices/${draft.body.id}`, { key: k })).status).toBe(204);
    const expense = await call('POST', '/api/workflow/expenses', { key: k, body: { category: 'travel', amount: 2_500, currency: 'EUR', incurred_on: '2026-03-03' } });
    expect((await call('PATCH', `/api/workflow/expenses/${expense.body.id}`, { key: k, body: { amount: 2_600, incurred_on: '2026-03-04', currency: 'USD' } })).status).toBe(200);
    const gone = await call('POST', '/api/workflow/expenses', { key: k, body: { category: 'travel', amount: 700, incurred_on: '2026-03-03' } });
    expect((await call('DELETE', `/api/workflow/expenses/${gone.body.id}`, { key: k })).status).toBe(204);

    // Writers outside the API: a payment written with no tax share (0014's trigger fills it in) and
    // a refund that fails later, as the provider's answer makes it.
    const open = await sentInvoice(k, { client_id: client.id, issue_date: '2026-03-06', line_items: line(50_000) });
    await env.DB.prepare("INSERT INTO payments (id, user_id, workspace_id, invoice_id, amount, currency, paid_on, created_at) VALUES ('pay_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', ?, ?, ?, 1001, 'EUR', '2026-03-07', '2026-03-07T10:00:00.000Z')")
      .bind(owner.id, workspaceId, open.id).run();
    await env.DB.prepare("UPDATE refunds SET status = 'failed' WHERE invoice_id = ?").bind(a.id).run();

    const { daily, fx } = await keptAndRecomputed();
    expect(daily.kept.length).toBeGreaterThan(3);
    expect(daily.kept).toEqual(daily.recomputed);
    expect(fx.kept.length).toBeGreaterThan(0);
    expect(fx.kept).toEqual(fx.recomputed);
  });
});
