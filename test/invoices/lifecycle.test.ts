import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../../src/lib/time';
import { call, errorPaths, expectError } from '../helpers/api';
import { createInvoice, createSentInvoice, createUser, oneLine } from '../helpers/factories';

/** The event types of the key's workspace, oldest first, as GET /api/events shows them. */
const eventTypes = async (key: string) =>
  (await call('GET', '/api/events?limit=100', { key })).body.data.map((e: { type: string }) => e.type).reverse();

describe('a draft', () => {
  it('can be edited, its lines replaced and totals recomputed', async () => {
    const user = await createUser();
    const draft = await createInvoice(user.key);
    const res = await call('PATCH', `/api/workflow/invoices/${draft.id}`, {
      key: user.key,
      body: { notes: 'Thanks!', line_items: [{ description: 'Audit', quantity: 3, unit_amount: 333, tax_rate: 20 }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ notes: 'Thanks!', subtotal: 999, tax: 200, total: 1_199, number: draft.number });
    expect(res.body.line_items).toHaveLength(1);
    const lines = await env.DB.prepare('SELECT count(*) AS n FROM invoice_line_items WHERE invoice_id = ?').bind(draft.id).first<{ n: number }>();
    expect(lines!.n).toBe(1);
  });

  it('can be deleted, lines and all', async () => {
    const user = await createUser();
    const draft = await createInvoice(user.key);
    expect((await call('DELETE', `/v1/invoices/${draft.id}`, { key: user.key })).status).toBe(204);
    expectError(await call('GET', `/v1/invoices/${draft.id}`, { key: user.key }), 404, 'not_found');
    const lines = await env.DB.prepare('SELECT count(*) AS n FROM invoice_line_items WHERE invoice_id = ?').bind(draft.id).first<{ n: number }>();
    expect(lines!.n).toBe(0);
  });

  it('with a zero total is paid the moment it is sent', async () => {
    const user = await createUser();
    const free = await createInvoice(user.key, { due_date: todayUtc(), line_items: [{ description: 'Goodwill', quantity: 1, unit_amount: 0 }] });
    const sent = await call('POST', `/v1/invoices/${free.id}/send`, { key: user.key });
    expect(sent.body).toMatchObject({ status: 'paid', total: 0, amount_due: 0, overdue: false, available_actions: [], paid_at: expect.any(String) });
  });

  it('cannot take payments or be voided', async () => {
    const user = await createUser();
    const draft = await createInvoice(user.key);
    expectError(await call('POST', `/v1/invoices/${draft.id}/payments`, { key: user.key, body: { amount: 1 } }), 409, 'invalid_state');
    expectError(await call('POST', `/v1/invoices/${draft.id}/void`, { key: user.key }), 409, 'invalid_state');
  });
});

describe('an open invoice', () => {
  it('is sent once, and can no longer be edited or deleted', async () => {
    const user = await createUser();
    const open = await createSentInvoice(user.key);
    expect(open).toMatchObject({ status: 'open', available_actions: ['record_payment', 'void'], sent_at: expect.any(String) });
    expectError(await call('POST', `/v1/invoices/${open.id}/send`, { key: user.key }), 409, 'invalid_state');
    expectError(await call('PATCH', `/v1/invoices/${open.id}`, { key: user.key, body: { notes: 'late edit' } }), 409, 'invalid_state');
    expectError(await call('DELETE', `/v1/invoices/${open.id}`, { key: user.key }), 409, 'invalid_state');
  });

  it('is paid in parts, never beyond what is due, and becomes paid at zero due', async () => {
    const user = await createUser();
    const open = await createSentInvoice(user.key); // total 100_000
    const part = await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 40_000, method: 'bank_transfer', paid_on: '2026-11-20' } });
    expect(part.status).toBe(200);
    expect(part.body).toMatchObject({ status: 'open', amount_paid: 40_000, amount_due: 60_000, available_actions: ['record_payment'] });

    const over = await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 60_001 } });
    expectError(over, 422, 'validation_failed');
    expect(errorPaths(over)).toEqual(['amount']);
    expectError(await call('POST', `/v1/invoices/${open.id}/void`, { key: user.key }), 409, 'invalid_state');

    const rest = await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 60_000 } });
    expect(rest.body).toMatchObject({ status: 'paid', amount_paid: 100_000, amount_due: 0, available_actions: [], paid_at: expect.any(String) });
    expectError(await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 1 } }), 409, 'invalid_state');
    expectError(await call('POST', `/v1/invoices/${open.id}/void`, { key: user.key }), 409, 'invalid_state');

    const payments = await env.DB.prepare('SELECT amount, paid_on, method FROM payments WHERE invoice_id = ? ORDER BY id').bind(open.id).all();
    expect(payments.results).toEqual([
      { amount: 40_000, paid_on: '2026-11-20', method: 'bank_transfer' },
      { amount: 60_000, paid_on: todayUtc(), method: null },
    ]);
    // The refused over-payment, void and late payment wrote nothing.
    expect(await eventTypes(user.key)).toEqual(['client.created', 'invoice.created', 'invoice.sent', 'invoice.payment_recorded', 'invoice.payment_recorded', 'invoice.paid']);
    const paid = (await call('GET', '/api/events?type=invoice.paid', { key: user.key })).body.data;
    // Events carry the invoice without its links: their tokens are the client's, never stored.
    expect(paid.map((e: { data: { object: unknown } }) => e.data.object)).toEqual([{ ...rest.body, hosted_url: null, pdf_url: null }]);
  });

  it('rejects a payment of zero or a fraction of a cent', async () => {
    const user = await createUser();
    const open = await createSentInvoice(user.key);
    for (const amount of [0, -5, 10.5, '100']) {
      const res = await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual(['amount']);
    }
  });

  it('records concurrent payments without ever exceeding the total', async () => {
    const user = await createUser();
    const open = await createSentInvoice(user.key);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 30_000 } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const row = await env.DB.prepare('SELECT amount_paid, (SELECT sum(amount) FROM payments WHERE invoice_id = ?1) AS paid FROM invoices WHERE id = ?1').bind(open.id).first();
    expect(row).toEqual({ amount_paid: 90_000, paid: 90_000 });
  });

  it('is voided while nothing is paid', async () => {
    const user = await createUser();
    const open = await createSentInvoice(user.key);
    const res = await call('POST', `/v1/invoices/${open.id}/void`, { key: user.key });
    expect(res.body).toMatchObject({ status: 'void', voided_at: expect.any(String), available_actions: [], amount_due: 100_000 });
    expectError(await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 1 } }), 409, 'invalid_state');
    expect(await eventTypes(user.key)).toContain('invoice.voided');
  });

  it('replays a retried payment instead of recording it twice', async () => {
    const user = await createUser();
    const open = await createSentInvoice(user.key);
    const headers = { 'Idempotency-Key': 'pay-once' };
    const first = await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 10_000 }, headers });
    const again = await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 10_000 }, headers });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(await call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 20_000 }, headers }), 422, 'idempotency_key_reused');
    expect((await call('GET', `/v1/invoices/${open.id}`, { key: user.key })).body.amount_paid).toBe(10_000);
  });
});

describe('invoice lists', () => {
  it('filter by status, overdue, client, project and issue dates', async () => {
    const user = await createUser();
    const draft = await createInvoice(user.key, { issue_date: '2026-01-10' });
    const late = await createSentInvoice(user.key, { issue_date: '2026-02-01', due_date: '2026-02-15' });
    const current = await createSentInvoice(user.key, { client_id: draft.client_id, issue_date: todayUtc(), due_date: addDays(todayUtc(), 10) });
    const ids = async (query: string) => (await call('GET', `/v1/invoices?${query}`, { key: user.key })).body.data.map((i: { id: string }) => i.id);

    expect(await ids('')).toEqual([current.id, late.id, draft.id]);
    expect(await ids('status=draft')).toEqual([draft.id]);
    expect(await ids('status=open')).toEqual([current.id, late.id]);
    expect(await ids('status=overdue')).toEqual([late.id]);
    expect(await ids(`client_id=${draft.client_id}`)).toEqual([current.id, draft.id]);
    expect(await ids('issued_from=2026-01-15&issued_to=2026-06-30')).toEqual([late.id]);
    const listed = (await call('GET', '/v1/invoices?status=overdue', { key: user.key })).body.data[0];
    expect(listed).toMatchObject({ overdue: true, status: 'open' });
    expect(listed.line_items).toBeUndefined();
    expectError(await call('GET', '/v1/invoices?status=late', { key: user.key }), 422, 'validation_failed');
    expectError(await call('GET', '/v1/invoices?issued_from=2026-13-01', { key: user.key }), 422, 'validation_failed');
  });
});

describe('isolation', () => {
  it('hides every invoice route behind a 404 for another user', async () => {
    const [owner, other] = [await createUser(), await createUser()];
    const draft = await createInvoice(owner.key);
    const open = await createSentInvoice(owner.key);
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/invoices/${draft.id}`],
      ['PATCH', `/v1/invoices/${draft.id}`, { notes: 'x' }],
      ['DELETE', `/v1/invoices/${draft.id}`],
      ['POST', `/v1/invoices/${draft.id}/send`],
      ['POST', `/api/workflow/invoices/${open.id}/payments`, { amount: 1 }],
      ['POST', `/api/workflow/invoices/${open.id}/void`],
    ];
    for (const [method, path, body] of attempts) expectError(await call(method, path, { key: other.key, body }), 404, 'not_found');
    expect((await call('GET', '/v1/invoices', { key: other.key })).body.data).toEqual([]);
    const still = await call('GET', `/v1/invoices/${open.id}`, { key: owner.key });
    expect(still.body).toMatchObject({ status: 'open', amount_paid: 0 });
    // Creating against the owner's client is refused too.
    expectError(await call('POST', '/v1/invoices', { key: other.key, body: { client_id: draft.client_id, line_items: oneLine } }), 422, 'validation_failed');
  });
});
