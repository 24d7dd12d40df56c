// Migration 0020 (§19) on a database filled through the schema before it: an expense of an earlier
// release reads with `invoice_id: null`, can be billed by an invoice from time, and is released by
// the column's ON DELETE SET NULL when that draft is deleted (the column was added in place, not
// by rebuilding the table).
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { call } from '../helpers/api';
import { createClient, createProject } from '../helpers/factories';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = '0020';
const T = '2026-10-01T09:00:00.000Z';
const user = 'usr_01JB00000000000000000000E0';
const ws = 'wsp_01JB00000000000000000000E0';
const key = `wsk_${'e'.repeat(43)}`;
const expense = 'exp_01JB0000000000000000000001';

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  await applyD1Migrations(env.DB, migrations.filter((m) => m.name < MIGRATION));
  await run(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'eve@example.com', 'Eve', 0, ?)`, user, T);
  await run(`INSERT INTO workspaces (id, name, personal_user_id, invoice_seq, created_at, updated_at) VALUES (?, 'Eve', ?, 0, ?, ?)`, ws, user, T, T);
  await run(`INSERT INTO memberships (id, workspace_id, user_id, role, created_at) VALUES ('mem_01JB00000000000000000000E1', ?, ?, 'owner', ?)`, ws, user, T);
  await run(`INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES ('key_01JB00000000000000000000E1', ?, ?, 'Default key', ?, ?, ?)`,
    user, ws, key.slice(0, 12), await sha256Hex(key), T);
  await run(`INSERT INTO expenses (id, user_id, workspace_id, project_id, category, description, amount, currency, incurred_on, billable, created_at, updated_at)
    VALUES (?, ?, ?, NULL, 'software', 'Font licence', 4999, 'USD', '2026-09-15', 1, ?, ?)`, expense, user, ws, T, T);
  await applyD1Migrations(env.DB, migrations);
});

describe('migration 0020: expenses billed by invoices', () => {
  it('keeps an old expense, bills it once it is a client project\'s, and releases it when the draft is deleted', async () => {
    const read = async () => (await call('GET', `/api/workflow/expenses/${expense}`, { key })).body;
    expect(await read()).toMatchObject({ id: expense, amount: 4999, billable: true, invoice_id: null });
    const client = await createClient(key);
    const project = await createProject(key, { client_id: client.id, hourly_rate: 10_000 });
    expect((await call('PATCH', `/api/workflow/expenses/${expense}`, { key, body: { project_id: project.id } })).status).toBe(200);
    const draft = await call('POST', '/v1/invoices/from-time', { key, body: { client_id: client.id } });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect((await read()).invoice_id).toBe(draft.body.id);
    expect((await call('DELETE', `/v1/invoices/${draft.body.id}`, { key })).status).toBe(204);
    expect((await read()).invoice_id).toBeNull();
  });
});
