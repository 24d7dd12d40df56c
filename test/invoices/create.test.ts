import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../../src/lib/time';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createClient, createInvoice, createProject, createUser, oneLine } from '../helpers/factories';

describe.each(['/api/workflow', '/v1'])('creating invoices under %s', (base) => {
  it('drafts an invoice whose figures add up, with the contract\'s defaults', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'EUR' });
    const res = await call('POST', `${base}/invoices`, {
      key: user.key,
      body: {
        client_id: client.id,
        line_items: [
          { description: 'Design', quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25 }, // 14998.5 → 14999; tax 1237.4175 → 1237
          { description: 'Hosting', quantity: 1, unit_amount: 2_500 }, // 2500; tax 0
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      number: 'INV-000001',
      status: 'draft',
      overdue: false,
      currency: 'EUR',
      issue_date: todayUtc(),
      due_date: addDays(todayUtc(), 30),
      subtotal: 17_499,
      tax: 1_237,
      total: 18_736,
      amount_paid: 0,
      amount_due: 18_736,
      available_actions: ['update', 'delete', 'send'],
      sent_at: null,
    });
    expect(res.body.line_items).toEqual([
      { id: expect.stringMatching(/^li_/), description: 'Design', quantity: 1.5, unit: 'C62', unit_amount: 9_999, gross: 14_999, discount_percent: 0, discount_amount: 0, tax_category: 'S', tax_rate: 8.25, amount: 14_999, tax: 1_237 },
      // Rate 0 beside a taxed line is zero-rated (§15).
      { id: expect.stringMatching(/^li_/), description: 'Hosting', quantity: 1, unit: 'C62', unit_amount: 2_500, gross: 2_500, discount_percent: 0, discount_amount: 0, tax_category: 'Z', tax_rate: 0, amount: 2_500, tax: 0 },
    ]);
    expect(res.body).toMatchObject({
      discount: null, discount_total: 0, tax_rounding: 'line', tax_exemption_reason: null, tax_exemption_code: null, buyer_reference: null, purchase_order: null,
      tax_breakdown: [
        { category: 'S', rate: 8.25, taxable_amount: 14_999, tax_amount: 1_237, discount_amount: 0, exemption_reason: null, exemption_code: null },
        { category: 'Z', rate: 0, taxable_amount: 2_500, tax_amount: 0, discount_amount: 0, exemption_reason: null, exemption_code: null },
      ],
    });
    expect((await call('GET', `${base}/invoices/${res.body.id}`, { key: user.key })).body).toEqual(res.body);
  });

  it('names every invalid field', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const res = await call('POST', `${base}/invoices`, {
      key: user.key,
      body: {
        client_id: client.id,
        currency: 'ABC',
        issue_date: '2026-05-10',
        due_date: '2026-05-01',
        line_items: [
          { description: 'x', quantity: 0, unit_amount: 100 },
          { description: 'y', quantity: 1.2345, unit_amount: 1.5, tax_rate: 100.5 },
          { description: '', quantity: 1, unit_amount: -1, discount: 5 },
        ],
      },
    });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res).sort()).toEqual([
      'currency',
      'line_items.0.quantity', 'line_items.1.quantity', 'line_items.1.tax_rate', 'line_items.1.unit_amount',
      'line_items.2.description', 'line_items.2.discount', 'line_items.2.unit_amount',
    ]);
  });

  it('refuses a due date before the issue date', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const res = await call('POST', `${base}/invoices`, {
      key: user.key,
      body: { client_id: client.id, issue_date: '2026-05-10', due_date: '2026-05-01', line_items: oneLine },
    });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['due_date']);
  });

  it('takes 1 to 100 line items', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    for (const count of [0, 101]) {
      const res = await call('POST', `${base}/invoices`, { key: user.key, body: { client_id: client.id, line_items: Array(count).fill(oneLine[0]) } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual(['line_items']);
    }
  });

  it('refuses a client or project that is not the caller\'s', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const mine = await createClient(user.key);
    const theirs = await createClient(other.key);
    const theirProject = await createProject(other.key);
    const byClient = await call('POST', `${base}/invoices`, { key: user.key, body: { client_id: theirs.id, line_items: oneLine } });
    expect(errorPaths(byClient)).toEqual(['client_id']);
    const byProject = await call('POST', `${base}/invoices`, { key: user.key, body: { client_id: mine.id, project_id: theirProject.id, line_items: oneLine } });
    expectError(byProject, 422, 'validation_failed');
    expect(errorPaths(byProject)).toEqual(['project_id']);
  });

  it('requires a key', async () => {
    await expectKeyRequired('POST', `${base}/invoices`, { client_id: 'cli_x', line_items: oneLine });
    await expectKeyRequired('GET', `${base}/invoices`);
  });
});

describe('invoice numbers', () => {
  it('count up per user and stay unique when twenty creations race', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: oneLine } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = results.map((r) => r.body.number).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`));
    // Another user starts at 1.
    const other = await createUser();
    expect((await createInvoice(other.key)).number).toBe('INV-000001');
  });

  it('refuses an explicit duplicate and skips past a hand-picked number', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    await createInvoice(user.key, { client_id: client.id, number: 'INV-000002' });
    const dup = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, number: 'INV-000002', line_items: oneLine } });
    expectError(dup, 409, 'invoice_number_taken');
    expect((await createInvoice(user.key, { client_id: client.id })).number).toBe('INV-000001');
    expect((await createInvoice(user.key, { client_id: client.id })).number).toBe('INV-000003');
    const count = await env.DB.prepare('SELECT count(*) AS n FROM invoices WHERE user_id = ?').bind(user.id).first<{ n: number }>();
    expect(count!.n).toBe(3);
  });
});

describe('invoice numbers picked by hand', () => {
  it('never block the default number, however many lie ahead of it', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    for (let n = 1; n <= 25; n++) await createInvoice(user.key, { client_id: client.id, number: `INV-${String(n).padStart(6, '0')}` });
    expect((await createInvoice(user.key, { client_id: client.id })).number).toBe('INV-000026');
  });
});

describe('quantities too small to bill', () => {
  it('are refused, not stored as zero', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const res = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [{ description: 'x', quantity: 5e-324, unit_amount: 100 }] } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['line_items.0.quantity']);
  });
});

describe('clients with invoices', () => {
  it('cannot be deleted', async () => {
    const user = await createUser();
    const invoice = await createInvoice(user.key);
    expectError(await call('DELETE', `/v1/clients/${invoice.client_id}`, { key: user.key }), 409, 'conflict');
    expect((await call('GET', `/v1/clients/${invoice.client_id}`, { key: user.key })).status).toBe(200);
  });
});
