// The migration that adds the period bundles' table (§22), on a database filled through the schema before it:
// the records already there are left as they were, and an export can be written for a workspace made before.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = 'period_bundles';
const LATER = ['export_upload_id'];
const T = '2026-10-01T09:00:00.000Z';
const user = 'usr_01JA0000000000000000000PB1';
const workspace = `wsp_${user.slice(4)}`;

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => m.name.includes(MIGRATION))).toHaveLength(1);
  // Without the later ones that alter its table, which need it first.
  await applyD1Migrations(env.DB, migrations.filter((m) => !m.name.includes(MIGRATION) && !LATER.some((later) => m.name.includes(later))));
  await env.DB.prepare(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'pb@example.com', 'Pia', 0, ?)`).bind(user, T).run();
  await env.DB.prepare(`INSERT INTO workspaces (id, name, personal_user_id, created_at, updated_at) VALUES (?, 'Pia', ?, ?, ?)`).bind(workspace, user, T, T).run();
  await applyD1Migrations(env.DB, migrations);
});

describe('migration: period bundles', () => {
  it('keeps the workspace and takes an export of it, queued with no file yet', async () => {
    await env.DB.prepare(`INSERT INTO exports (id, workspace_id, user_id, status, period_from, period_to, kinds, origin, created_at, updated_at)
      VALUES ('xpt_01JA0000000000000000000PB1', ?, ?, 'queued', '2026-09-01', '2026-09-30', '["invoices"]', 'https://workspace.test', ?, ?)`).bind(workspace, user, T, T).run();
    expect(await env.DB.prepare('SELECT name FROM workspaces').all().then((r) => r.results)).toEqual([{ name: 'Pia' }]);
    expect(await env.DB.prepare('SELECT status, attempts, file_key, size FROM exports').first()).toEqual({ status: 'queued', attempts: 0, file_key: null, size: null });
  });
});
