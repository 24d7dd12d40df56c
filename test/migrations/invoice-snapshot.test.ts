// The migration that snapshots an invoice's locale and payment instructions (§10), on a database
// filled through the schema before it: an invoice sent before keeps what its workspace says at the
// upgrade, from then on; a draft keeps following the workspace.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { call } from '../helpers/api';
import { putRates } from '../helpers/rates';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = 'invoice_document_snapshot';
const T = '2026-10-01T09:00:00.000Z';
const key = `wsk_${'d'.repeat(43)}`;
const user = 'usr_01JA0000000000000000000DE1';
const workspace = `wsp_${user.slice(4)}`;

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}

/** A German workspace with a sent invoice and a draft, as the schema before the migration held them. */
async function fillOldSchema() {
  await run(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'de@example.com', 'Dora', 2, ?)`, user, T);
  await run(`INSERT INTO workspaces (id, name, personal_user_id, invoice_seq, invoice_prefix, time_zone, locale, issuer, payment_instructions, reminders_enabled, reminder_days, created_at, updated_at)
    VALUES (?, 'Dora', ?, 2, 'INV-', 'Europe/Berlin', 'de-DE', NULL, 'IBAN DE89 3704 0044 0532 0130 00', 0, '[3,10]', ?, ?)`, workspace, user, T, T);
  await run(`INSERT INTO memberships (id, workspace_id, user_id, role, created_at) VALUES ('mem_01JA0000000000000000000DE1', ?, ?, 'owner', ?)`, workspace, user, T);
  await run(`INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES ('key_01JA0000000000000000000DE1', ?, ?, 'Default key', ?, ?, ?)`,
    user, workspace, key.slice(0, 12), await sha256Hex(key), T);
  await run(`INSERT INTO clients (id, user_id, workspace_id, name, email, currency, status, created_at, updated_at) VALUES ('cli_01JA0000000000000000000DE1', ?, ?, 'Acme', NULL, 'EUR', 'active', ?, ?)`, user, workspace, T, T);
  for (const [id, number, status] of [['inv_01JA0000000000000000000DE1', 'INV-000001', 'open'], ['inv_01JA0000000000000000000DE2', 'INV-000002', 'draft']]) {
    await run(`INSERT INTO invoices (id, user_id, workspace_id, number, status, client_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, 'cli_01JA0000000000000000000DE1', 'EUR', '2026-09-01', '2099-10-01', 1000, 0, 1000, 0, ?, ?)`, id, user, workspace, number, status, T, T);
  }
}

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.filter((m) => m.name.includes(MIGRATION))).toHaveLength(1);
  await applyD1Migrations(env.DB, migrations.filter((m) => !m.name.includes(MIGRATION)));
  await fillOldSchema();
  await applyD1Migrations(env.DB, migrations);
  await putRates({ EUR: 0.92 });
});

describe('migration: the locale and payment instructions of an invoice', () => {
  it('freezes an invoice sent before it at its workspace\'s settings of the day, and leaves a draft to follow the workspace', async () => {
    const rows = await env.DB.prepare('SELECT number, locale, payment_instructions FROM invoices ORDER BY number').all();
    expect(rows.results).toEqual([
      { number: 'INV-000001', locale: 'de-DE', payment_instructions: 'IBAN DE89 3704 0044 0532 0130 00' },
      { number: 'INV-000002', locale: null, payment_instructions: null },
    ]);
    expect((await call('PATCH', '/api/workspace', { key, body: { locale: 'en-US', payment_instructions: 'Pay by card' } })).status).toBe(200);
    const sent = await call('GET', '/v1/invoices/inv_01JA0000000000000000000DE1/preview', { key });
    expect(sent.body).toContain('Zwischensumme');
    expect(sent.body).toContain('IBAN DE89');
    const draft = await call('GET', '/v1/invoices/inv_01JA0000000000000000000DE2/preview', { key });
    expect(draft.body).toContain('Subtotal');
    expect(draft.body).toContain('Pay by card');
  });
});
