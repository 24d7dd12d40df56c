// The migration that keeps a bundle's multipart upload on its row (§22), on a database filled through the schema
// before it: the exports already there keep their status and file, with no upload, and an upload can be kept.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = 'export_upload_id';
const T = '2026-11-01T09:00:00.000Z';
const user = 'usr_01JA0000000000000000000UP1';
const workspace = `wsp_${user.slice(4)}`;

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => m.name.includes(MIGRATION))).toHaveLength(1);
  await applyD1Migrations(env.DB, migrations.filter((m) => !m.name.includes(MIGRATION)));
  await env.DB.prepare(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'up@example.com', 'Uma', 0, ?)`).bind(user, T).run();
  await env.DB.prepare(`INSERT INTO workspaces (id, name, personal_user_id, created_at, updated_at) VALUES (?, 'Uma', ?, ?, ?)`).bind(workspace, user, T, T).run();
  await env.DB.prepare(`INSERT INTO exports (id, workspace_id, user_id, status, period_from, period_to, kinds, origin, file_key, size, completed_at, created_at, updated_at)
    VALUES ('xpt_01JA0000000000000000000UP1', ?, ?, 'ready', '2026-10-01', '2026-10-31', '["invoices"]', 'https://workspace.test', 'exports/k.zip', 1234, ?, ?, ?)`)
    .bind(workspace, user, T, T, T).run();
  await applyD1Migrations(env.DB, migrations);
});

describe('migration: export upload id', () => {
  it('keeps a ready export as it was, with no upload, and keeps a running one\'s upload', async () => {
    expect(await env.DB.prepare('SELECT status, file_key, size, upload_id FROM exports').first()).toEqual({ status: 'ready', file_key: 'exports/k.zip', size: 1234, upload_id: null });
    await env.DB.prepare(`INSERT INTO exports (id, workspace_id, user_id, status, period_from, period_to, kinds, origin, file_key, upload_id, created_at, updated_at)
      VALUES ('xpt_01JA0000000000000000000UP2', ?, ?, 'running', '2026-10-01', '2026-10-31', '["time"]', 'https://workspace.test', 'exports/u.zip', 'upload-1', ?, ?)`).bind(workspace, user, T, T).run();
    expect(await env.DB.prepare("SELECT upload_id FROM exports WHERE id = 'xpt_01JA0000000000000000000UP2'").first()).toEqual({ upload_id: 'upload-1' });
  });
});
