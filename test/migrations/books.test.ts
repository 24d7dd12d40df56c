// Migrations 0031 (the kept day rates) and 0032 (the reports' indexes) on a database filled while the
// schema was as 0030 left it: the table and the indexes appear, no record changes, and the reports
// read the records that were there before.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const MIGRATIONS = ['exchange_rates_history', 'report_indexes'];
const NEW_INDEXES = ['expenses_workspace_incurred_net_idx', 'invoices_workspace_issue_net_idx', 'invoices_workspace_status_settled_idx', 'payments_workspace_paid_on_net_idx', 'refunds_invoice_idx'];
const objects = async () =>
  (await env.DB.prepare(`SELECT name FROM sqlite_master WHERE name IN (${[...NEW_INDEXES, 'exchange_rates'].map(() => '?').join(', ')}) ORDER BY name`).bind(...NEW_INDEXES, 'exchange_rates').all<{ name: string }>()).results.map((r) => r.name);
const records = async () => Promise.all(['invoices', 'payments', 'refunds', 'expenses'].map(async (table) => (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY id`).all()).results));

let user: TestUser;

beforeAll(async () => {
  // The setup file migrated this database to the newest schema: what 0031 and 0032 add is taken
  // away again, and they are marked as not yet applied.
  const applied = env.TEST_MIGRATIONS.filter((m) => MIGRATIONS.some((name) => m.name.includes(name)));
  expect(applied).toHaveLength(2);
  await env.DB.batch([
    ...NEW_INDEXES.map((name) => env.DB.prepare(`DROP INDEX ${name}`)),
    env.DB.prepare('DROP TABLE exchange_rates'),
    ...applied.map((m) => env.DB.prepare('DELETE FROM d1_migrations WHERE name = ?').bind(m.name)),
  ]);
  await putRates({ EUR: 0.9 });
  user = await createUser();
  const client = await createClient(user.key);
  const invoice = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, issue_date: '2026-02-01', line_items: [{ description: 'Work', quantity: 1, unit_amount: 10_000, tax_rate: 19 }] } });
  await call('POST', `/v1/invoices/${invoice.body.id}/send`, { key: user.key, body: { email: false } });
  await call('POST', `/v1/invoices/${invoice.body.id}/payments`, { key: user.key, body: { amount: 11_900, paid_on: '2026-02-10' } });
  const payment = await env.DB.prepare('SELECT id FROM payments WHERE invoice_id = ?').bind(invoice.body.id).first<{ id: string }>();
  expect((await call('POST', `/v1/invoices/${invoice.body.id}/payments/${payment!.id}/refunds`, { key: user.key, body: { amount: 1_190 } })).status).toBe(201);
  expect((await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'travel', amount: 2_000, incurred_on: '2026-02-03' } })).status).toBe(201);
});

describe('migrations 0031 and 0032 (the books)', () => {
  it('add the day rates\' table and the reports\' indexes, and change no record', async () => {
    expect(await objects()).toEqual([]);
    const before = await records();

    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

    expect(await objects()).toEqual([...NEW_INDEXES, 'exchange_rates'].sort());
    expect(await records()).toEqual(before);
    const pnl = await call('GET', '/v1/reports/profit-and-loss?from=2026-02-01&to=2026-02-28&basis=cash', { key: user.key });
    expect(pnl.body.totals).toEqual({ income: 10_000, expenses: 2_000, fx_gain_loss: 0, profit: 8_000 });
  });
});
