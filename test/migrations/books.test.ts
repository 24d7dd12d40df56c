// Migrations 0037, 0038 and 0041 (the kept day rates, the reports' indexes, the profit and loss's daily sums) on a
// database filled while the schema was as 0036 left it: the tables, indexes and triggers appear, no
// record changes, the daily sums are backfilled from the records already there, and the triggers keep
// them in step with what comes after.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const MIGRATIONS = ['exchange_rates_history', 'report_indexes', 'books_rollups'];
const NEW_INDEXES = ['expenses_workspace_incurred_net_idx', 'invoices_workspace_issue_net_idx', 'invoices_workspace_status_settled_idx', 'payments_workspace_paid_on_net_idx', 'refunds_invoice_idx'];
const NEW_TABLES = ['books_daily', 'books_fx_issue', 'exchange_rates'];
const names = async (where: string) => (await env.DB.prepare(`SELECT name FROM sqlite_master WHERE ${where} ORDER BY name`).all<{ name: string }>()).results.map((r) => r.name);
const added = () => names(`name IN (${[...NEW_INDEXES, ...NEW_TABLES].map((n) => `'${n}'`).join(', ')}) OR name LIKE 'books_%' OR name LIKE 'exchange_rates_%'`);
const records = async () => Promise.all(['invoices', 'payments', 'refunds', 'expenses', 'credit_notes'].map(async (table) => (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY id`).all()).results));
const daily = async () => (await env.DB.prepare('SELECT * FROM books_daily ORDER BY workspace_id, day, currency').all()).results;

let user: TestUser;
let invoiceId: string;

beforeAll(async () => {
  // The setup file migrated this database to the newest schema: what 0037, 0038 and 0041 add is taken away
  // again (the triggers first, so that nothing below writes the sums), and they are marked as not yet applied.
  const applied = env.TEST_MIGRATIONS.filter((m) => MIGRATIONS.some((name) => m.name.includes(name)));
  expect(applied).toHaveLength(3);
  const triggers = await names("type = 'trigger' AND name LIKE 'books_%'");
  await env.DB.batch([
    ...triggers.map((name) => env.DB.prepare(`DROP TRIGGER ${name}`)),
    ...NEW_INDEXES.map((name) => env.DB.prepare(`DROP INDEX ${name}`)),
    ...NEW_TABLES.map((name) => env.DB.prepare(`DROP TABLE ${name}`)),
    ...applied.map((m) => env.DB.prepare('DELETE FROM d1_migrations WHERE name = ?').bind(m.name)),
  ]);
  await putRates({ EUR: 0.9 });
  user = await createUser();
  const client = await createClient(user.key);
  const invoice = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, issue_date: '2026-02-01', line_items: [{ description: 'Work', quantity: 1, unit_amount: 10_000, tax_rate: 19 }] } });
  invoiceId = invoice.body.id;
  await call('POST', `/v1/invoices/${invoiceId}/send`, { key: user.key, body: { email: false } });
  await call('POST', `/v1/invoices/${invoiceId}/payments`, { key: user.key, body: { amount: 11_900, paid_on: '2026-02-10' } });
  const payment = await env.DB.prepare('SELECT id FROM payments WHERE invoice_id = ?').bind(invoiceId).first<{ id: string }>();
  expect((await call('POST', `/v1/invoices/${invoiceId}/payments/${payment!.id}/refunds`, { key: user.key, body: { amount: 1_190 } })).status).toBe(201);
  expect((await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'travel', amount: 2_000, incurred_on: '2026-02-03' } })).status).toBe(201);
});

describe('migrations 0037, 0038 and 0041 (the books)', () => {
  it('add the day rates, the reports\' indexes and the daily sums, backfilled, and change no record', async () => {
    expect(await added()).toEqual([]);
    const before = await records();

    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

    expect(await added()).toEqual(expect.arrayContaining([...NEW_INDEXES, ...NEW_TABLES, 'books_invoice_after_insert', 'exchange_rates_lookup_idx', 'exchange_rates_day_idx']));
    expect(await records()).toEqual(before);
    const february = '?from=2026-02-01&to=2026-02-28&basis=cash';
    // Read from the backfilled daily sums (by month) and from the records (by project), alike.
    const byMonth = await call('GET', `/v1/reports/profit-and-loss${february}`, { key: user.key });
    expect(byMonth.body.totals).toEqual({ income: 10_000, expenses: 2_000, fx_gain_loss: 0, profit: 8_000 });
    expect((await call('GET', `/v1/reports/profit-and-loss${february}&group_by=project`, { key: user.key })).body.totals).toEqual(byMonth.body.totals);

    // What changes after is kept by the triggers: a credit note, and the same sums from scratch agree.
    expect((await call('POST', `/v1/invoices/${invoiceId}/credit-notes`, { key: user.key, body: { reason: 'order_change', email: false, lines: [{ description: 'Goodwill', quantity: 1, unit_amount: 500, tax_rate: 0 }] } })).status).toBe(201);
    const kept = await daily();
    await env.DB.prepare('DELETE FROM books_daily').run();
    await env.DB.prepare((env.TEST_MIGRATIONS.find((m) => m.name.includes('books_rollups'))!.queries.find((q) => q.includes('INSERT INTO `books_daily`'))!)).run();
    expect(await daily()).toEqual(kept);
  });
});
