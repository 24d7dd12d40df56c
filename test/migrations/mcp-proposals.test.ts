// The migration that adds MCP proposals (§23), on a database filled through the schema before it:
// one new table, nothing else touched, and a proposal goes with its workspace.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = 'mcp_proposals';
const T = '2026-10-01T09:00:00.000Z';
const user = 'usr_01JA0000000000000000000MC1';
const workspace = `wsp_${user.slice(4)}`;

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => m.name.includes(MIGRATION))).toHaveLength(1);
  await applyD1Migrations(env.DB, migrations.filter((m) => !m.name.includes(MIGRATION)));
  await run(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'mc@example.com', 'Mia', 1, ?)`, user, T);
  await run(`INSERT INTO workspaces (id, name, personal_user_id, invoice_seq, invoice_prefix, time_zone, locale, reminders_enabled, reminder_days, created_at, updated_at)
    VALUES (?, 'Mia', ?, 1, 'INV-', 'Europe/Berlin', 'de-DE', 0, '[3,10]', ?, ?)`, workspace, user, T, T);
  await applyD1Migrations(env.DB, migrations);
});

describe('migration: MCP proposals', () => {
  it('adds an empty table beside the records before it, and a proposal goes with its workspace', async () => {
    expect((await env.DB.prepare('SELECT id, locale FROM workspaces').all()).results).toEqual([{ id: workspace, locale: 'de-DE' }]);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM mcp_proposals').first())!.n).toBe(0);
    await run(`INSERT INTO mcp_proposals (id, workspace_id, user_id, key_id, tool, method, path, body, summary, status, expires_at, created_at)
      VALUES ('mcp_01JA0000000000000000000MC1', ?, ?, 'key_01JA0000000000000000000MC1', 'voidInvoice', 'POST', '/v1/invoices/inv_x/void', '{}', 'Void', 'pending', ?, ?)`, workspace, user, T, T);
    await run('DELETE FROM workspaces WHERE id = ?', workspace);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM mcp_proposals').first())!.n).toBe(0);
  });
});
