// Migration 0011 (§15) on a database filled through the schema before it: old lines get unit C62, no
// discount and the category their rate and their invoice imply; old invoices keep every amount and
// number and gain the breakdown of their lines; old snapshots and recurring templates still read,
// validate against the document and issue.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { issueDueInvoices } from '../../src/modules/recurring-invoices/issue';
import { call } from '../helpers/api';
import { putRates } from '../helpers/rates';
import { emptyDatabase } from '../helpers/empty-database';

const MIGRATION = '0015';
const T = '2026-10-01T09:00:00.000Z';
const user = 'usr_01JB00000000000000000000C0';
const ws = 'wsp_01JB00000000000000000000C0';
const key = `wsk_${'c'.repeat(43)}`;
const client = 'cli_01JB0000000000000000000001';
const taxed = 'inv_01JB0000000000000000000001';
const untaxed = 'inv_01JB0000000000000000000002';
const rin = 'rin_01JB0000000000000000000001';

async function run(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql).bind(...params).run();
}
const all = async <T>(sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).all<T>()).results;

const address = { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', region: null, postal_code: '10115', country: 'DE' };

/** Rows as the schema before §15 had them: an issuer without a VAT id, a draft with two rates, a sent untaxed invoice, a template. */
async function fillOldSchema() {
  await run(`INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES (?, 'cy@example.com', 'Cy', 0, ?)`, user, T);
  await run(`INSERT INTO workspaces (id, name, personal_user_id, invoice_seq, issuer, created_at, updated_at) VALUES (?, 'Cy', ?, 2, ?, ?, ?)`,
    ws, user, JSON.stringify({ legal_name: 'Cy Studio', email: 'cy@example.com', address, tax_id: 'DE-OLD-1' }), T, T);
  await run(`INSERT INTO memberships (id, workspace_id, user_id, role, created_at) VALUES ('mem_01JB0000000000000000000001', ?, ?, 'owner', ?)`, ws, user, T);
  await run(`INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES ('key_01JB0000000000000000000001', ?, ?, 'Default key', ?, ?, ?)`,
    user, ws, key.slice(0, 12), await sha256Hex(key), T);
  await run(`INSERT INTO clients (id, user_id, workspace_id, name, email, currency, tax_id, status, created_at, updated_at)
    VALUES (?, ?, ?, 'Acme', 'billing@acme.example', 'EUR', 'FR12345678901', 'active', ?, ?)`, client, user, ws, T, T);
  const invoice = `INSERT INTO invoices (id, user_id, workspace_id, number, status, client_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, sent_at, issuer, bill_to, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 'EUR', '2026-09-01', '2026-10-01', ?, ?, ?, 0, ?, ?, ?, ?, ?)`;
  await run(invoice, taxed, user, ws, 'INV-000001', 'draft', client, 17_499, 1_237, 18_736, null, null, null, T, T);
  await run(invoice, untaxed, user, ws, 'INV-000002', 'open', client, 5_000, 0, 5_000, T,
    JSON.stringify({ name: 'Cy', legal_name: 'Cy Studio', email: 'cy@example.com', address, tax_id: 'DE-OLD-1' }),
    JSON.stringify({ name: 'Acme', email: 'billing@acme.example', company: null, address, tax_id: 'FR12345678901' }), T, T);
  const line = `INSERT INTO invoice_line_items (id, invoice_id, position, description, quantity_milli, unit_amount, tax_rate_milli, amount, tax) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  await run(line, 'li_01JB0000000000000000000001', taxed, 0, 'Design', 1_500, 9_999, 8_250, 14_999, 1_237);
  await run(line, 'li_01JB0000000000000000000002', taxed, 1, 'Hosting', 1_000, 2_500, 0, 2_500, 0);
  await run(line, 'li_01JB0000000000000000000003', untaxed, 0, 'Advice', 1_000, 5_000, 0, 5_000, 0);
  await run(`INSERT INTO recurring_invoices (id, user_id, workspace_id, status, client_id, currency, line_items, due_in_days, interval, interval_count, start_date,
      auto_send, time_zone, next_period, next_issue_date, next_issue_at, invoices_created, link_origin, created_at, updated_at)
    VALUES (?, ?, ?, 'active', ?, 'EUR', ?, 30, 'month', 1, '2026-09-01', 0, 'UTC', 0, '2026-09-01', '2026-09-01T00:00:00.000Z', 0, 'https://workspace.test', ?, ?)`,
    rin, user, ws, client, JSON.stringify([{ description: 'Retainer', quantity: 2, unit_amount: 1_000, tax_rate: 19 }]), T, T);
}

beforeAll(async () => {
  await emptyDatabase(); // this file starts from an empty database, not the setup file's migrated one
  const migrations = env.TEST_MIGRATIONS;
  await applyD1Migrations(env.DB, migrations.filter((m) => m.name < MIGRATION));
  await fillOldSchema();
  await applyD1Migrations(env.DB, migrations);
  await putRates({ EUR: 0.92 });
});

describe('migration 0011: the line and tax model', () => {
  it('leaves every stored amount and number as it was', async () => {
    expect(await all('SELECT number, subtotal, tax, total, amount_paid, discount_total, tax_rounding FROM invoices ORDER BY id')).toEqual([
      { number: 'INV-000001', subtotal: 17_499, tax: 1_237, total: 18_736, amount_paid: 0, discount_total: 0, tax_rounding: 'line' },
      { number: 'INV-000002', subtotal: 5_000, tax: 0, total: 5_000, amount_paid: 0, discount_total: 0, tax_rounding: 'line' },
    ]);
    expect(await all('SELECT amount, tax, unit, discount_percent_milli, discount_amount, tax_category FROM invoice_line_items ORDER BY id')).toEqual([
      { amount: 14_999, tax: 1_237, unit: 'C62', discount_percent_milli: 0, discount_amount: 0, tax_category: 'S' },
      { amount: 2_500, tax: 0, unit: 'C62', discount_percent_milli: 0, discount_amount: 0, tax_category: 'Z' },
      { amount: 5_000, tax: 0, unit: 'C62', discount_percent_milli: 0, discount_amount: 0, tax_category: 'O' },
    ]);
  });

  it('shows an old invoice with the categories its rates imply and the breakdown of its lines', async () => {
    const res = await call('GET', `/v1/invoices/${taxed}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subtotal: 17_499, discount: null, discount_total: 0, tax: 1_237, total: 18_736, tax_rounding: 'line', buyer_reference: null, purchase_order: null });
    expect(res.body.line_items.map((l: Record<string, unknown>) => [l.unit, l.gross, l.discount_amount, l.amount, l.tax_category, l.tax])).toEqual([
      ['C62', 14_999, 0, 14_999, 'S', 1_237], ['C62', 2_500, 0, 2_500, 'Z', 0],
    ]);
    expect(res.body.tax_breakdown).toEqual([
      { category: 'S', rate: 8.25, taxable_amount: 14_999, tax_amount: 1_237, discount_amount: 0, exemption_reason: null, exemption_code: null },
      { category: 'Z', rate: 0, taxable_amount: 2_500, tax_amount: 0, discount_amount: 0, exemption_reason: null, exemption_code: null },
    ]);
  });

  it('reads a sent invoice of an issuer without a VAT id as not subject to VAT, its snapshots as they were', async () => {
    const res = await call('GET', `/v1/invoices/${untaxed}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.tax_breakdown).toEqual([{ category: 'O', rate: 0, taxable_amount: 5_000, tax_amount: 0, discount_amount: 0, exemption_reason: 'Not subject to VAT', exemption_code: null }]);
    expect(res.body.issuer).toEqual({ name: 'Cy', legal_name: 'Cy Studio', email: 'cy@example.com', address, tax_id: 'DE-OLD-1' });
    expect(res.body.amount_due).toBe(5_000);
    expect((await call('GET', `/v1/invoices/${untaxed}/preview`, { key })).status).toBe(200);
  });

  it('lets an old draft take a discount, its lines kept', async () => {
    const res = await call('PATCH', `/v1/invoices/${taxed}`, { key, body: { discount: { amount: 499 } } });
    expect(res.status).toBe(200);
    // 499 split 14999 : 2500 → 427.7… and 71.2…: 427 + 71 = 498, the last unit to the larger remainder (0.7…).
    expect(res.body).toMatchObject({ subtotal: 17_499, discount_total: 499, tax: 1_237 - 35, total: 17_499 - 499 + 1_202 });
    expect(res.body.tax_breakdown.map((g: Record<string, unknown>) => [g.category, g.discount_amount, g.taxable_amount])).toEqual([['S', 428, 14_571], ['Z', 71, 2_429]]);
    expect(res.body.line_items.map((l: { id: string }) => l.id)).toEqual(['li_01JB0000000000000000000001', 'li_01JB0000000000000000000002']);
  });

  it('gives the workspace line rounding and old clients their VAT id under both names', async () => {
    const workspace = (await call('GET', '/api/workspace', { key })).body;
    expect(workspace).toMatchObject({ tax_rounding: 'line', issuer: { tax_id: 'DE-OLD-1', vat_id: null, iban: null } });
    expect((await call('GET', `/api/workflow/clients/${client}`, { key })).body).toMatchObject({ tax_id: 'FR12345678901', vat_id: 'FR12345678901', peppol_id: null, buyer_reference: null });
  });

  it('shows an old recurring template with its breakdown and issues from it', async () => {
    const template = (await call('GET', `/v1/recurring-invoices/${rin}`, { key })).body;
    expect(template).toMatchObject({ tax_rounding: 'line', subtotal: 2_000, tax: 380, total: 2_380, tax_breakdown: [{ category: 'S', rate: 19, taxable_amount: 2_000, tax_amount: 380 }] });
    expect(template.line_items[0]).toMatchObject({ unit: 'C62', tax_category: 'S', discount_percent: 0 });
    expect(await issueDueInvoices(env)).toBeGreaterThan(0);
    const [issued] = (await call('GET', `/v1/invoices?recurring_invoice_id=${rin}&limit=1`, { key })).body.data.slice(-1);
    expect(issued).toMatchObject({ subtotal: 2_000, tax: 380, total: 2_380, tax_breakdown: template.tax_breakdown });
  });
});
