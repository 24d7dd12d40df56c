// The migration that gives workspaces their `accounting` setting (§22), on a database filled through the
// schema before it: a workspace made before has none (null, so the DATEV export asks for it) and keeps
// every other setting.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = 'workspace_accounting';
const T = '2026-10-01T09:00:00.000Z';
const user = 'usr_01JA0000000000000000000WA1';
const workspace = `wsp_${user.slice(4)}`;

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => m.name.includes(MIGRATION))).toHaveLength(1);
  await applyD1Migrations(env.DB, migrations.filter((m) => !m.name.includes(MIGRATION)));
  await env.DB.prepare(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'wa@example.com', 'Wanda', 0, ?)`).bind(user, T).run();
  await env.DB.prepare(`INSERT INTO workspaces (id, name, personal_user_id, invoice_prefix, time_zone, locale, default_currency, created_at, updated_at)
    VALUES (?, 'Wanda', ?, 'RE-', 'Europe/Berlin', 'de-DE', 'EUR', ?, ?)`).bind(workspace, user, T, T).run();
  await applyD1Migrations(env.DB, migrations);
});

describe('migration: the workspace\'s accounting setting', () => {
  it('leaves a workspace made before without one, and its other settings as they were', async () => {
    const row = await env.DB.prepare('SELECT accounting, invoice_prefix, time_zone, default_currency FROM workspaces WHERE id = ?').bind(workspace).first();
    expect(row).toEqual({ accounting: null, invoice_prefix: 'RE-', time_zone: 'Europe/Berlin', default_currency: 'EUR' });
  });
});
