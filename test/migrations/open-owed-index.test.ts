// Migration 0024 on a database filled while the index was as 0023 left it: the open invoices' covering
// index is replaced, no row changes, and the dashboard's figures read the same before and after.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createInvoice, createSentInvoice, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const MIGRATION = 'open_invoices_cover_credited';
const indexes = async () =>
  (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'invoices' AND name LIKE 'invoices_workspace_open_%'").all<{ name: string }>()).results.map((r) => r.name);
const invoiceRows = async () => (await env.DB.prepare('SELECT * FROM invoices ORDER BY id').all()).results;

let user: TestUser;

beforeAll(async () => {
  // The setup file migrated this database to the newest schema; its open invoices' index is put back
  // as 0023 left it, and 0024 marked as not yet applied.
  const migration = env.TEST_MIGRATIONS.filter((m) => m.name.includes(MIGRATION));
  expect(migration).toHaveLength(1);
  await env.DB.batch([
    env.DB.prepare('DROP INDEX invoices_workspace_open_owed_idx'),
    env.DB.prepare('CREATE INDEX invoices_workspace_open_due_idx ON invoices (workspace_id, status, currency, due_date, total, amount_paid)'),
    env.DB.prepare('DELETE FROM d1_migrations WHERE name = ?').bind(migration[0]!.name),
  ]);
  await putRates({ EUR: 0.9 });
  user = await createUser();
  const client = await createClient(user.key);
  const owing = await createSentInvoice(user.key, { client_id: client.id });
  await call('POST', `/v1/invoices/${owing.id}/payments`, { key: user.key, body: { amount: 10_000 } });
  const credited = await createSentInvoice(user.key, { client_id: client.id });
  expect((await call('POST', `/v1/invoices/${credited.id}/credit-notes`, { key: user.key, body: { reason: 'order_change', email: false } })).status).toBe(201);
  await createInvoice(user.key, { client_id: client.id });
});

describe('migration 0024 (the open invoices\' index covers credited_amount)', () => {
  it('replaces the index and leaves every row and the dashboard as they were', async () => {
    expect(await indexes()).toEqual(['invoices_workspace_open_due_idx']);
    const rowsBefore = await invoiceRows();
    const dashboardBefore = (await call('GET', '/api/workflow/dashboard', { key: user.key })).body;

    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

    expect(await indexes()).toEqual(['invoices_workspace_open_owed_idx']);
    expect(await invoiceRows()).toEqual(rowsBefore);
    const dashboardAfter = (await call('GET', '/api/workflow/dashboard', { key: user.key })).body;
    expect({ ...dashboardAfter, activity: undefined }).toEqual({ ...dashboardBefore, activity: undefined });
  });
});
