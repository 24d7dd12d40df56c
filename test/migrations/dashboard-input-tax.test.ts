// The migration that keeps input tax in the expenses' monthly roll-up (§21), on a database filled through the
// schema before it: expenses accepted from documents before it count their tax at once, whole months and cut ones
// alike, and the new triggers keep it in step when such an expense is deleted.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { call } from '../helpers/api';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = 'dashboard_input_tax';
const T = '2026-10-01T09:00:00.000Z';
const user = 'usr_01JB00000000000000000000T1';
const ws = 'wsp_01JB00000000000000000000T1';
const key = `wsk_${'t'.repeat(43)}`;

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}

const expense = (id: string, amount: number, tax: number | null, incurredOn: string) =>
  run(`INSERT INTO expenses (id, user_id, workspace_id, category, amount, currency, incurred_on, billable, net_amount, tax_amount, created_at, updated_at)
    VALUES (?, ?, ?, 'software', ?, 'USD', ?, 0, ?, ?, ?, ?)`, id, user, ws, amount, incurredOn, tax === null ? null : amount - tax, tax, T, T);

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => m.name.includes(MIGRATION))).toHaveLength(1);
  await applyD1Migrations(env.DB, migrations.filter((m) => !m.name.includes(MIGRATION)));
  await run(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'tia@example.com', 'Tia', 0, ?)`, user, T);
  await run(`INSERT INTO workspaces (id, name, personal_user_id, invoice_seq, created_at, updated_at) VALUES (?, 'Tia', ?, 0, ?, ?)`, ws, user, T, T);
  await run(`INSERT INTO memberships (id, workspace_id, user_id, role, created_at) VALUES ('mem_01JB00000000000000000000T1', ?, ?, 'owner', ?)`, ws, user, T);
  await run(`INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES ('key_01JB00000000000000000000T1', ?, ?, 'Default key', ?, ?, ?)`,
    user, ws, key.slice(0, 12), await sha256Hex(key), T);
  await expense('exp_01JB0000000000000000000T01', 11_900, 1_900, '2026-08-10');
  await expense('exp_01JB0000000000000000000T02', 1_070, 70, '2026-09-03');
  await expense('exp_01JB0000000000000000000T03', 5_000, null, '2026-09-20');
  await applyD1Migrations(env.DB, migrations);
});

const totals = async (query: string) => (await call('GET', `/api/workflow/dashboard?${query}&currency=USD`, { key })).body.totals;

describe('migration: input tax in the expenses\' roll-up', () => {
  it('counts the tax of expenses written before it, and follows a delete after it', async () => {
    expect(await totals('from=2026-08-01&to=2026-09-30')).toMatchObject({ expenses: 17_970, input_tax: 1_970, profit: -16_000 });
    expect(await totals('from=2026-08-05&to=2026-09-10')).toMatchObject({ expenses: 12_970, input_tax: 1_970 });
    expect((await call('DELETE', '/api/workflow/expenses/exp_01JB0000000000000000000T01', { key })).status).toBe(204);
    expect(await totals('from=2026-08-01&to=2026-09-30')).toMatchObject({ expenses: 6_070, input_tax: 70, profit: -6_000 });
  });
});
