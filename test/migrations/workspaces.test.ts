// Migration 0006 on a database filled through the schema before it: every user gets a personal
// workspace they own, every record keeps its id, number and amounts and moves into that
// workspace, invoice numbering goes on from the user's old counter, every key keeps working as the
// workspace's owner, and the old activity feed becomes events with the user as actor.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { call } from '../helpers/api';
import { putRates } from '../helpers/rates';
import { emptyDatabase } from '../helpers/empty-database';

const FIRST_WORKSPACE_MIGRATION = '0006';
const T = '2026-10-01T09:00:00.000Z';
const ada = { id: 'usr_01JA0000000000000000000ADA', key: `wsk_${'a'.repeat(43)}`, revokedKey: `wsk_${'r'.repeat(43)}` };
const bo = { id: 'usr_01JA0000000000000000000B0B', key: `wsk_${'b'.repeat(43)}` };
const personal = (userId: string) => `wsp_${userId.slice(4)}`;

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}

/** Rows as the schema before workspaces had them: two users, every kind of record, activity. */
async function fillOldSchema() {
  await run(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'ada@example.com', 'Ada', 7, ?), (?, 'bo@example.com', 'Bo', 1, ?)`, ada.id, T, bo.id, T);
  const keys: [string, string, string, string | null][] = [
    ['key_01JA0000000000000000000001', ada.id, ada.key, null],
    ['key_01JA0000000000000000000002', ada.id, ada.revokedKey, T],
    ['key_01JA0000000000000000000003', bo.id, bo.key, null],
  ];
  for (const [id, userId, key, revokedAt] of keys) {
    await run(`INSERT INTO api_keys (id, user_id, name, prefix, key_hash, created_at, revoked_at) VALUES (?, ?, 'Default key', ?, ?, ?, ?)`,
      id, userId, key.slice(0, 12), await sha256Hex(key), T, revokedAt);
  }
  await run(`INSERT INTO clients (id, user_id, name, email, currency, status, created_at, updated_at) VALUES
    ('cli_01JA0000000000000000000001', ?, 'Acme', 'billing@acme.example', 'EUR', 'active', ?, ?),
    ('cli_01JA0000000000000000000002', ?, 'Globex', NULL, 'USD', 'active', ?, ?)`, ada.id, T, T, bo.id, T, T);
  await run(`INSERT INTO projects (id, user_id, client_id, name, status, currency, budget, created_at, updated_at) VALUES
    ('prj_01JA0000000000000000000001', ?, 'cli_01JA0000000000000000000001', 'Brand', 'active', 'EUR', 1200000, ?, ?)`, ada.id, T, T);
  // Ada's invoices: a hand-picked number among the default ones, and every status.
  const invoices: [string, string, string, number, number][] = [
    ['inv_01JA0000000000000000000001', 'INV-000006', 'paid', 271_320, 271_320],
    ['inv_01JA0000000000000000000002', 'INV-000007', 'open', 165_000, 50_000],
    ['inv_01JA0000000000000000000003', 'SPECIAL-1', 'draft', 1_000, 0],
  ];
  for (const [id, number, status, total, paid] of invoices) {
    await run(`INSERT INTO invoices (id, user_id, number, status, client_id, project_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, created_at, updated_at)
      VALUES (?, ?, ?, ?, 'cli_01JA0000000000000000000001', 'prj_01JA0000000000000000000001', 'EUR', '2026-09-01', '2026-10-01', ?, 0, ?, ?, ?, ?)`,
      id, ada.id, number, status, total, total, paid, T, T);
    await run(`INSERT INTO invoice_line_items (id, invoice_id, position, description, quantity_milli, unit_amount, tax_rate_milli, amount, tax)
      VALUES (?, ?, 0, 'Work', 1000, ?, 0, ?, 0)`, `li_${id.slice(4)}`, id, total, total);
  }
  await run(`INSERT INTO invoices (id, user_id, number, status, client_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, created_at, updated_at)
    VALUES ('inv_01JA0000000000000000000004', ?, 'INV-000001', 'open', 'cli_01JA0000000000000000000002', 'USD', '2026-09-15', '2026-10-15', 5000, 0, 5000, 0, ?, ?)`, bo.id, T, T);
  await run(`INSERT INTO payments (id, user_id, invoice_id, amount, currency, paid_on, created_at) VALUES
    ('pay_01JA0000000000000000000001', ?, 'inv_01JA0000000000000000000001', 271320, 'EUR', '2026-09-20', ?),
    ('pay_01JA0000000000000000000002', ?, 'inv_01JA0000000000000000000002', 50000, 'EUR', '2026-09-21', ?)`, ada.id, T, ada.id, T);
  await run(`INSERT INTO expenses (id, user_id, project_id, category, amount, currency, incurred_on, billable, created_at, updated_at) VALUES
    ('exp_01JA0000000000000000000001', ?, 'prj_01JA0000000000000000000001', 'software', 4500, 'USD', '2026-09-10', 0, ?, ?)`, ada.id, T, T);
  await run(`INSERT INTO gigs (id, user_id, poster_name, title, description, skills, budget_type, budget_min, budget_max, currency, remote, status, created_at, updated_at)
    VALUES ('gig_01JA0000000000000000000001', ?, 'Ada', 'Logo design', 'A logo', '["design"]', 'fixed', 10000, 20000, 'USD', 1, 'open', ?, ?)`, ada.id, T, T);
  await run(`INSERT INTO transfers (id, user_id, status, source_currency, source_amount, fee, target_currency, target_amount, rate, rate_as_of, recipient, status_history, created_at, updated_at)
    VALUES ('trf_01JA0000000000000000000001', ?, 'completed', 'USD', 10000, 150, 'EUR', 9000, '0.9133000000', ?, '{"name":"Bo","country":"DE","account":{"iban":"DE89370400440532013000"}}', '[]', ?, ?)`, ada.id, T, T, T);
  await run(`INSERT INTO suggestions (id, user_id, kind, task, status, created_at) VALUES ('sug_01JA0000000000000000000001', ?, 'plan', 'Plan it', 'queued', ?)`, ada.id, T);
  await run(`INSERT INTO activities (id, user_id, type, subject_id, summary, occurred_at) VALUES
    ('act_01JA0000000000000000000001', ?, 'invoice.sent', 'inv_01JA0000000000000000000002', 'Invoice INV-000007 sent', ?),
    ('act_01JA0000000000000000000002', ?, 'expense.recorded', 'exp_01JA0000000000000000000001', 'Expense recorded', ?)`, ada.id, T, ada.id, T);
  await run(`INSERT INTO idempotency_keys (user_id, key, method, path, fingerprint, state, response_status, response_body, created_at, expires_at)
    VALUES (?, 'retry-1', 'POST', '/api/workflow/clients', 'f', 'done', 201, '{"headers":{},"body":"{}"}', ?, '2999-01-01T00:00:00.000Z')`, ada.id, T);
}

const all = async <T>(sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).all<T>()).results;

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  await applyD1Migrations(env.DB, migrations.filter((m) => m.name < FIRST_WORKSPACE_MIGRATION));
  await fillOldSchema();
  await applyD1Migrations(env.DB, migrations);
  await putRates({ EUR: 0.92 });
});

describe('migration 0006: workspaces and events', () => {
  it('gives every user one personal workspace they own, with their invoice counter', async () => {
    const rows = await all<{ id: string; personal_user_id: string; invoice_seq: number; role: string; user_id: string }>(
      `SELECT w.id, w.personal_user_id, w.invoice_seq, m.role, m.user_id FROM workspaces w JOIN memberships m ON m.workspace_id = w.id ORDER BY w.id`,
    );
    expect(rows).toEqual([
      { id: personal(ada.id), personal_user_id: ada.id, invoice_seq: 7, role: 'owner', user_id: ada.id },
      { id: personal(bo.id), personal_user_id: bo.id, invoice_seq: 1, role: 'owner', user_id: bo.id },
    ]);
  });

  it('moves every record into its user\'s workspace with its id, number and amounts', async () => {
    for (const table of ['api_keys', 'clients', 'projects', 'invoices', 'payments', 'expenses', 'gigs', 'transfers', 'suggestions']) {
      const stray = await all(`SELECT id FROM ${table} WHERE workspace_id IS NULL OR workspace_id != 'wsp_' || substr(user_id, 5)`);
      expect({ table, stray }).toEqual({ table, stray: [] });
    }
    const invoices = await all<{ id: string; number: string; total: number; amount_paid: number; workspace_id: string }>(
      'SELECT id, number, total, amount_paid, workspace_id FROM invoices ORDER BY id',
    );
    expect(invoices.map((i) => [i.number, i.total, i.amount_paid, i.workspace_id])).toEqual([
      ['INV-000006', 271_320, 271_320, personal(ada.id)],
      ['INV-000007', 165_000, 50_000, personal(ada.id)],
      ['SPECIAL-1', 1_000, 0, personal(ada.id)],
      ['INV-000001', 5_000, 0, personal(bo.id)],
    ]);
  });

  it('rebuilds the dashboard roll-ups per workspace from the rows', async () => {
    expect(await all('SELECT workspace_id, status, count FROM workspace_invoice_status_counts ORDER BY workspace_id, status')).toEqual([
      { workspace_id: personal(ada.id), status: 'draft', count: 1 },
      { workspace_id: personal(ada.id), status: 'open', count: 1 },
      { workspace_id: personal(ada.id), status: 'paid', count: 1 },
      { workspace_id: personal(bo.id), status: 'open', count: 1 },
    ]);
    expect(await all('SELECT workspace_id, month, currency, invoiced FROM workspace_invoice_monthly_totals ORDER BY workspace_id')).toEqual([
      { workspace_id: personal(ada.id), month: '2026-09', currency: 'EUR', invoiced: 436_320 },
      { workspace_id: personal(bo.id), month: '2026-09', currency: 'USD', invoiced: 5_000 },
    ]);
    expect(await all('SELECT workspace_id, collected FROM workspace_payment_monthly_totals')).toEqual([{ workspace_id: personal(ada.id), collected: 321_320 }]);
    expect(await all('SELECT workspace_id, spent FROM workspace_expense_monthly_totals')).toEqual([{ workspace_id: personal(ada.id), spent: 4_500 }]);
  });

  it('keeps every key working as the owner of the personal workspace; a revoked one stays revoked', async () => {
    const me = await call('GET', '/api/me', { key: ada.key });
    expect(me.status).toBe(200);
    expect(me.body.workspace).toEqual({ id: personal(ada.id), name: 'Ada', role: 'owner' });
    expect((await call('GET', '/api/me', { key: ada.revokedKey })).status).toBe(401);
    const list = await call('GET', '/v1/invoices', { key: ada.key });
    expect(list.body.data.map((i: { number: string }) => i.number).sort()).toEqual(['INV-000006', 'INV-000007', 'SPECIAL-1']);
  });

  it('continues invoice numbering from the user\'s old sequence, per workspace', async () => {
    const line_items = [{ description: 'More work', quantity: 1, unit_amount: 100 }];
    const adaInvoice = await call('POST', '/v1/invoices', { key: ada.key, body: { client_id: 'cli_01JA0000000000000000000001', line_items } });
    expect(adaInvoice.body.number).toBe('INV-000008');
    const boInvoice = await call('POST', '/v1/invoices', { key: bo.key, body: { client_id: 'cli_01JA0000000000000000000002', line_items } });
    expect(boInvoice.body.number).toBe('INV-000002');
  });

  it('turns the old activity into events with the user as actor', async () => {
    const events = await call('GET', '/api/events?limit=100', { key: ada.key });
    const migrated = events.body.data.filter((e: { created_at: string }) => e.created_at === T);
    expect(migrated.map((e: { id: string; type: string; actor: unknown; data: unknown }) => [e.id, e.type, e.actor, e.data])).toEqual([
      ['evt_01JA0000000000000000000002', 'expense.created', { type: 'user', id: ada.id, name: 'Ada' }, { object: { id: 'exp_01JA0000000000000000000001' } }],
      ['evt_01JA0000000000000000000001', 'invoice.sent', { type: 'user', id: ada.id, name: 'Ada' }, { object: { id: 'inv_01JA0000000000000000000002' } }],
    ]);
    const dashboard = await call('GET', '/api/workflow/dashboard', { key: ada.key });
    expect(dashboard.body.activity.map((a: { summary: string }) => a.summary)).toContain('Invoice INV-000007 sent');
    // Bo sees none of Ada's history.
    expect((await call('GET', '/api/events', { key: bo.key })).body.data.filter((e: { created_at: string }) => e.created_at === T)).toEqual([]);
  });

  it('keeps idempotent replays from before, scoped to the personal workspace', async () => {
    expect(await all('SELECT workspace_id, user_id, key, response_status FROM idempotency_requests')).toEqual([
      { workspace_id: personal(ada.id), user_id: ada.id, key: 'retry-1', response_status: 201 },
    ]);
  });
});
