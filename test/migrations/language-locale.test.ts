// The migration that gives clients and credit notes a locale (§20), on a database filled through
// the schema before it: a client has none of its own (it reads as the workspace's), and a credit
// note issued before keeps reading in its invoice's language, now as its own.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = 'language_locale';
const T = '2026-10-01T09:00:00.000Z';
const user = 'usr_01JA0000000000000000000LL1';
const workspace = `wsp_${user.slice(4)}`;
const client = 'cli_01JA0000000000000000000LL1';
const invoice = 'inv_01JA0000000000000000000LL1';

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}

/** A German workspace with a client, an invoice sent in French and its credit note, as the schema before held them. */
async function fillOldSchema() {
  await run(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'll@example.com', 'Lea', 1, ?)`, user, T);
  await run(`INSERT INTO workspaces (id, name, personal_user_id, invoice_seq, invoice_prefix, time_zone, locale, reminders_enabled, reminder_days, created_at, updated_at)
    VALUES (?, 'Lea', ?, 1, 'INV-', 'Europe/Berlin', 'de-DE', 0, '[3,10]', ?, ?)`, workspace, user, T, T);
  await run(`INSERT INTO clients (id, user_id, workspace_id, name, currency, status, created_at, updated_at) VALUES (?, ?, ?, 'Client SARL', 'EUR', 'active', ?, ?)`, client, user, workspace, T, T);
  await run(`INSERT INTO invoices (id, user_id, workspace_id, number, status, client_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, locale, created_at, updated_at)
    VALUES (?, ?, ?, 'INV-000001', 'open', ?, 'EUR', '2026-09-01', '2099-10-01', 1000, 0, 1000, 0, 'fr-FR', ?, ?)`, invoice, user, workspace, client, T, T);
  await run(`INSERT INTO credit_notes (id, user_id, workspace_id, invoice_id, client_id, number, reason, issue_date, currency, subtotal, tax, total, tax_rounding, tax_breakdown, pre_payment_amount, post_payment_amount, created_at)
    VALUES ('cn_01JA0000000000000000000LL1', ?, ?, ?, ?, 'CN-000001', 'other', '2026-09-02', 'EUR', 100, 0, 100, 'line', '[]', 100, 0, ?)`, user, workspace, invoice, client, T);
}

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => m.name.includes(MIGRATION))).toHaveLength(1);
  await applyD1Migrations(env.DB, migrations.filter((m) => !m.name.includes(MIGRATION)));
  await fillOldSchema();
  await applyD1Migrations(env.DB, migrations);
});

describe('migration: clients\' and credit notes\' locale', () => {
  it('leaves a client to the workspace\'s locale and gives a credit note issued before its invoice\'s', async () => {
    expect((await env.DB.prepare('SELECT locale FROM clients').all()).results).toEqual([{ locale: null }]);
    expect((await env.DB.prepare('SELECT number, locale FROM credit_notes').all()).results).toEqual([{ number: 'CN-000001', locale: 'fr-FR' }]);
  });
});
