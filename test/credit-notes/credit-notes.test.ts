// Credit notes (§17) through the worker: the whole invoice or lines of it, what is credited of each
// line, the pre-/post-payment split and its refund, the invoice's amounts and state, the numbers,
// the refusals, concurrency, currencies with 0 and 3 decimals, the events and both listings.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError, open } from '../helpers/api';
import { createClient, createInvoice, createSentInvoice, createUser } from '../helpers/factories';
import { rowsById, workspaceOn } from '../scaling/helpers';

const credit = (key: string, invoiceId: string, body: Record<string, unknown> = {}, listing = '/v1') =>
  call('POST', `${listing}/invoices/${invoiceId}/credit-notes`, { key, body: { reason: 'order_change', email: false, ...body } });

const invoiceOf = async (key: string, id: string) => (await call('GET', `/v1/invoices/${id}`, { key })).body;

describe('POST …/invoices/{id}/credit-notes', () => {
  it('credits the whole invoice: a mirror of it, numbered CN-000001, and the invoice has nothing left due', async () => {
    const user = await createUser();
    const invoice = await createSentInvoice(user.key, {
      line_items: [{ description: 'Design', quantity: 3, unit_amount: 33_333, tax_rate: 19 }, { description: 'Print', quantity: 1, unit_amount: 5_000, tax_rate: 7 }],
      discount: { percent: 10 },
    });
    const res = await credit(user.key, invoice.id, { memo: 'Cancelled order' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const note = res.body;
    expect(note).toMatchObject({
      number: 'CN-000001', invoice_id: invoice.id, client_id: invoice.client_id, status: 'issued', reason: 'order_change', memo: 'Cancelled order',
      currency: invoice.currency, subtotal: invoice.subtotal, discount_total: invoice.discount_total, tax: invoice.tax, total: invoice.total,
      tax_breakdown: invoice.tax_breakdown, pre_payment_amount: invoice.total, post_payment_amount: 0, refund_id: null,
    });
    expect(note.id).toMatch(/^cn_/);
    expect(note.line_items.map((l: any) => [l.invoice_line_item_id, l.quantity, l.amount, l.tax])).toEqual(invoice.line_items.map((l: any) => [l.id, l.quantity, l.amount, l.tax]));
    expect(note.hosted_url).toMatch(/\/c\/[A-Za-z0-9_-]{43}$/);
    expect(note.pdf_url).toBe(`${note.hosted_url}/pdf`);

    const after = await invoiceOf(user.key, invoice.id);
    expect(after).toMatchObject({ status: 'paid', credited_amount: invoice.total, credit_note_ids: [note.id], amount_paid: 0, amount_due: 0 });
    expect(after.available_actions).toEqual([]);

    // Read back, and listed under the invoice in both listings.
    const read = await call('GET', `/v1/credit-notes/${note.id}`, { key: user.key });
    expect(read.body).toEqual(note);
    for (const listing of ['/v1', '/api/workflow']) {
      const list = await call('GET', `${listing}/invoices/${invoice.id}/credit-notes`, { key: user.key });
      expect(list.status).toBe(200);
      const { line_items: _lines, ...summary } = note;
      expect(list.body.data).toEqual([summary]);
    }

    // Its events, in the credit note's batch, carry what the API answered (links aside).
    const events = (await call('GET', '/api/events?limit=10', { key: user.key })).body.data;
    const issued = events.find((e: any) => e.type === 'credit_note.issued');
    expect(issued.data.object).toEqual({ ...note, hosted_url: null, pdf_url: null });
    // The number the batch drew is in the activity's line too.
    expect((await env.DB.prepare('SELECT summary FROM events WHERE id = ?').bind(issued.id).first<{ summary: string }>())!.summary).toBe('Credit note CN-000001 issued');
    const credited = events.find((e: any) => e.type === 'invoice.credited');
    expect(credited.data.object).toMatchObject({ id: invoice.id, credited_amount: invoice.total, status: 'paid' });
    expect(credited.data.credit_note).toEqual({ ...note, hosted_url: null, pdf_url: null });
    expect(events.map((e: any) => e.type).slice(0, 3).sort()).toEqual(['credit_note.issued', 'invoice.credited', 'invoice.paid']);
  });

  it('credits a line twice up to its quantity and no further', async () => {
    const user = await createUser();
    const invoice = await createSentInvoice(user.key, { line_items: [{ description: 'Hours', quantity: 10, unit: 'HUR', unit_amount: 10_000, tax_rate: 20 }] });
    const line = invoice.line_items[0];
    const first = await credit(user.key, invoice.id, { lines: [{ line_item_id: line.id, quantity: 6.5 }] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.line_items[0]).toMatchObject({ description: 'Hours', unit: 'HUR', quantity: 6.5, unit_amount: 10_000, amount: 65_000, tax_rate: 20, tax: 13_000, invoice_line_item_id: line.id });
    expect(first.body.total).toBe(78_000);
    // No quantity: the rest of the line.
    const second = await credit(user.key, invoice.id, { lines: [{ line_item_id: line.id }] });
    expect(second.status).toBe(201);
    expect(second.body.line_items[0].quantity).toBe(3.5);
    expect(second.body.number).toBe('CN-000002');
    const third = await credit(user.key, invoice.id, { lines: [{ line_item_id: line.id, quantity: 0.001 }] });
    expectError(third, 422, 'validation_failed');
    expect(errorPaths(third)).toEqual(['lines.0.line_item_id']);
    const after = await invoiceOf(user.key, invoice.id);
    expect(after).toMatchObject({ credited_amount: 120_000, total: 120_000, amount_due: 0, status: 'paid' });
    expect(after.credit_note_ids).toEqual([first.body.id, second.body.id]);
  });

  it('refuses more than the quantity not yet credited, naming the line', async () => {
    const user = await createUser();
    const invoice = await createSentInvoice(user.key, { line_items: [{ description: 'A', quantity: 2, unit_amount: 1_000 }, { description: 'B', quantity: 1, unit_amount: 500 }] });
    const [a] = invoice.line_items;
    // The same line twice in one request counts together.
    const res = await credit(user.key, invoice.id, { lines: [{ line_item_id: a.id, quantity: 1.5 }, { line_item_id: a.id, quantity: 1 }] });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['lines.1.quantity']);
    const other = await createSentInvoice(user.key);
    const foreign = await credit(user.key, invoice.id, { lines: [{ line_item_id: other.line_items[0].id }] });
    expect(errorPaths(foreign)).toEqual(['lines.0.line_item_id']);
    expect((await invoiceOf(user.key, invoice.id)).credited_amount).toBe(0);
  });

  it('lowers what is due first and refunds the rest from the payment, in the same operation', async () => {
    const user = await createUser();
    const invoice = await createSentInvoice(user.key); // 10 × 10 000, no tax
    await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 30_000 } });
    await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 50_000 } });
    const payments = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: user.key })).body.data;
    const [latest, earlier] = payments;
    // 20 000 due: a credit of 50 000 takes 20 000 off what is due and gives 30 000 back.
    const res = await credit(user.key, invoice.id, { lines: [{ line_item_id: invoice.line_items[0].id, quantity: 5 }], reason: 'product_unsatisfactory' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ total: 50_000, pre_payment_amount: 20_000, post_payment_amount: 30_000, refund_id: expect.stringMatching(/^rfd_/) });
    const after = await invoiceOf(user.key, invoice.id);
    expect(after).toMatchObject({ status: 'paid', amount_paid: 50_000, credited_amount: 50_000, amount_due: 0 });
    // The latest payment whose unrefunded rest covers it.
    const refunded = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: user.key })).body.data;
    expect(refunded.find((p: any) => p.id === latest.id).amount_refunded).toBe(30_000);
    expect(refunded.find((p: any) => p.id === earlier.id).amount_refunded).toBe(0);

    // A named payment that cannot cover the rest is a 422 on refund_payment_id, changing nothing.
    const more = await credit(user.key, invoice.id, { lines: [{ line_item_id: invoice.line_items[0].id, quantity: 4 }], refund_payment_id: latest.id });
    expectError(more, 422, 'validation_failed');
    expect(errorPaths(more)).toEqual(['refund_payment_id']);
    const named = await credit(user.key, invoice.id, { lines: [{ line_item_id: invoice.line_items[0].id, quantity: 2 }], refund_payment_id: earlier.id });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect(named.body.post_payment_amount).toBe(20_000);
    expect(await invoiceOf(user.key, invoice.id)).toMatchObject({ amount_paid: 30_000, credited_amount: 70_000, amount_due: 0, status: 'paid' });

    // The dashboard: collected counts the refunds on their date, invoiced the credit notes on theirs.
    const dashboard = (await call('GET', '/api/workflow/dashboard', { key: user.key })).body.totals;
    expect(dashboard).toMatchObject({ invoiced: 100_000 - 70_000, collected: 80_000 - 50_000, outstanding: 0 });
    // The same from the monthly roll-ups, which a whole month is read from.
    const today = new Date().toISOString().slice(0, 10);
    const lastDay = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const month = (await call('GET', `/api/workflow/dashboard?from=${today.slice(0, 8)}01&to=${lastDay}`, { key: user.key })).body.totals;
    expect(month).toMatchObject({ invoiced: 30_000, collected: 30_000 });
  });

  it('leaves an open invoice open with less due, and a payment then settles the rest', async () => {
    const user = await createUser();
    const invoice = await createSentInvoice(user.key);
    const res = await credit(user.key, invoice.id, { lines: [{ description: 'Agreed discount', quantity: 1, unit_amount: 25_000, tax_rate: 0 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.line_items[0]).toMatchObject({ invoice_line_item_id: null, description: 'Agreed discount', unit: 'C62' });
    expect(await invoiceOf(user.key, invoice.id)).toMatchObject({ status: 'open', amount_due: 75_000, available_actions: ['record_payment'] });
    const tooMuch = await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 75_001 } });
    expectError(tooMuch, 422, 'validation_failed');
    const pay = await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 75_000 } });
    expect(pay.body).toMatchObject({ status: 'paid', amount_due: 0 });
  });

  it('refuses credit notes that together would exceed the total (422)', async () => {
    const user = await createUser();
    const invoice = await createSentInvoice(user.key);
    const big = await credit(user.key, invoice.id, { lines: [{ description: 'Too much', quantity: 1, unit_amount: 100_001, tax_rate: 0 }] });
    expectError(big, 422, 'validation_failed');
    expect(errorPaths(big)).toEqual(['lines']);
    expect((await credit(user.key, invoice.id, { lines: [{ description: 'Part', quantity: 1, unit_amount: 60_000, tax_rate: 0 }] })).status).toBe(201);
    // The whole invoice after a part of it, and more than what is left.
    expect(errorPaths(await credit(user.key, invoice.id))).toEqual(['lines']);
    expect(errorPaths(await credit(user.key, invoice.id, { lines: [{ description: 'Rest+1', quantity: 1, unit_amount: 40_001, tax_rate: 0 }] }))).toEqual(['lines']);
    expect((await credit(user.key, invoice.id, { lines: [{ description: 'Rest', quantity: 1, unit_amount: 40_000, tax_rate: 0 }] })).status).toBe(201);
    expect(await invoiceOf(user.key, invoice.id)).toMatchObject({ credited_amount: 100_000, status: 'paid' });
  });

  it('is 409 on a draft and on a void invoice, and a credited invoice cannot be voided', async () => {
    const user = await createUser();
    const draft = await createInvoice(user.key);
    expectError(await credit(user.key, draft.id), 409, 'invalid_state');
    const voided = await createSentInvoice(user.key);
    expect((await call('POST', `/v1/invoices/${voided.id}/void`, { key: user.key })).status).toBe(200);
    expectError(await credit(user.key, voided.id), 409, 'invalid_state');

    const open = await createSentInvoice(user.key);
    expect((await credit(user.key, open.id, { lines: [{ line_item_id: open.line_items[0].id, quantity: 1 }] })).status).toBe(201);
    expect((await invoiceOf(user.key, open.id)).available_actions).not.toContain('void');
    expectError(await call('POST', `/v1/invoices/${open.id}/void`, { key: user.key }), 409, 'invalid_state');
    expect((await invoiceOf(user.key, open.id)).status).toBe('open');
    // Nothing was numbered for the refusals.
    expect((await call('GET', `/v1/invoices/${open.id}/credit-notes`, { key: user.key })).body.data.map((n: any) => n.number)).toEqual(['CN-000001']);
  });

  it('lets exactly the concurrent credit notes that fit succeed', async () => {
    const user = await createUser();
    const invoice = await createSentInvoice(user.key); // 100 000
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => credit(user.key, invoice.id, { lines: [{ description: `Part ${i}`, quantity: 1, unit_amount: 30_000, tax_rate: 0 }] })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422]);
    const after = await invoiceOf(user.key, invoice.id);
    expect(after.credited_amount).toBe(90_000);
    expect(after.amount_due).toBe(10_000);
    expect(after.credit_note_ids).toHaveLength(3);
    const { count } = (await env.DB.prepare('SELECT count(*) AS count FROM credit_notes WHERE invoice_id = ?').bind(invoice.id).first<{ count: number }>())!;
    expect(count).toBe(3);
  });

  it('gives unique consecutive numbers under concurrent creation, from the workspace\'s own sequence', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const invoices = await Promise.all(Array.from({ length: 6 }, () => createSentInvoice(user.key, { client_id: client.id })));
    const results = await Promise.all(invoices.map((inv, i) => credit(user.key, inv.id, {}, i % 2 ? '/v1' : '/api/workflow')));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(results.map((r) => r.body.number).sort()).toEqual(['CN-000001', 'CN-000002', 'CN-000003', 'CN-000004', 'CN-000005', 'CN-000006']);
    // Invoice numbers are a sequence of their own.
    expect(invoices.map((i) => i.number).sort()[0]).toBe('INV-000001');
  });

  it('computes in zero-decimal and three-decimal currencies, with the invoice\'s discount in proportion', async () => {
    const user = await createUser();
    // JPY: 3 × ¥1,000 at 10 %, 10 % off the invoice. Crediting one: ¥1,000, discount round(1000 × 300 / 3000) = ¥100,
    // tax per line 100 less round(100 × 10 %) = 90, total ¥990.
    const yen = await createSentInvoice(user.key, { currency: 'JPY', line_items: [{ description: 'Seat', quantity: 3, unit_amount: 1_000, tax_rate: 10 }], discount: { percent: 10 } });
    expect(yen.total).toBe(2_970);
    const jpy = await credit(user.key, yen.id, { lines: [{ line_item_id: yen.line_items[0].id, quantity: 1 }] });
    expect(jpy.status, JSON.stringify(jpy.body)).toBe(201);
    expect(jpy.body).toMatchObject({ currency: 'JPY', subtotal: 1_000, discount_total: 100, tax: 90, total: 990 });
    expect(await invoiceOf(user.key, yen.id)).toMatchObject({ amount_due: 1_980 });

    // KWD: 3 × 1.250 at 5 %. Crediting one: 1.250 + round(62.5) = 63 → 1.313 KWD.
    const dinar = await createSentInvoice(user.key, { currency: 'KWD', line_items: [{ description: 'Licence', quantity: 3, unit_amount: 1_250, tax_rate: 5 }] });
    const kwd = await credit(user.key, dinar.id, { lines: [{ line_item_id: dinar.line_items[0].id, quantity: 1 }] });
    expect(kwd.status).toBe(201);
    expect(kwd.body).toMatchObject({ currency: 'KWD', subtotal: 1_250, tax: 63, total: 1_313, pre_payment_amount: 1_313 });
    // EN 16931 has no three-decimal amounts: the e-invoice names the currency instead of being wrong.
    const xml = await call('GET', `/v1/credit-notes/${kwd.body.id}/e-invoice`, { key: user.key });
    expectError(xml, 422, 'einvoice_incomplete');
    expect(errorPaths(xml)).toContain('currency');
  });

  it('keeps the invoice\'s tax rounding and categories: per group, and a line of its own that breaks §15 is a 422', async () => {
    const user = await createUser();
    expect((await call('PATCH', '/api/workspace', { key: user.key, body: { tax_rounding: 'group' } })).status).toBe(200);
    const invoice = await createSentInvoice(user.key, { line_items: [{ description: 'A', quantity: 3, unit_amount: 333, tax_rate: 19 }, { description: 'B', quantity: 1, unit_amount: 1_001, tax_rate: 19 }] });
    // Changing the setting now leaves the invoice's mode, and so its credit notes', as it was.
    await call('PATCH', '/api/workspace', { key: user.key, body: { tax_rounding: 'line' } });
    const res = await credit(user.key, invoice.id, { lines: [{ line_item_id: invoice.line_items[0].id }, { line_item_id: invoice.line_items[1].id }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // One group: round((999 + 1001) × 19 %) = 380; each line's tax is null.
    expect(res.body).toMatchObject({ subtotal: 2_000, tax: 380, total: 2_380 });
    expect(res.body.line_items.map((l: any) => l.tax)).toEqual([null, null]);
    expect(res.body.total).toBe(invoice.total);
    const other = await createSentInvoice(user.key, { line_items: [{ description: 'Taxed', quantity: 1, unit_amount: 10_000, tax_rate: 20 }] });
    const mixed = await credit(user.key, other.id, { lines: [{ description: 'Untaxed', quantity: 1, unit_amount: 100, tax_category: 'O', tax_rate: 0 }, { line_item_id: other.line_items[0].id, quantity: 0.5 }] });
    expectError(mixed, 422, 'validation_failed');
    expect(errorPaths(mixed)).toEqual(['lines.0.tax_category']);
  });

  it('is the workspace\'s own: another workspace sees a 404 for the credit note and its invoice', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const invoice = await createSentInvoice(owner.key);
    const note = (await credit(owner.key, invoice.id)).body;
    expectError(await call('GET', `/v1/credit-notes/${note.id}`, { key: stranger.key }), 404, 'not_found');
    expectError(await call('GET', `/v1/credit-notes/${note.id}/pdf`, { key: stranger.key }), 404, 'not_found');
    expectError(await credit(stranger.key, invoice.id), 404, 'not_found');
    expectError(await call('GET', `/v1/invoices/${invoice.id}/credit-notes`, { key: stranger.key }), 404, 'not_found');
  });
});

describe('credit notes of a workspace on the second database', () => {
  it('numbers them from the copy\'s own sequence, which a settings change does not reset, and serves their page', { timeout: 120_000 }, async () => {
    const placed = await workspaceOn('DB_WORKSPACES_2');
    const first = await createSentInvoice(placed.key);
    expect((await credit(placed.key, first.id)).body.number).toBe('CN-000001');
    // A new prefix: the sequence carries on, in the workspace's own database.
    const settings = await call('PATCH', '/api/workspace', { key: placed.key, body: { credit_note_prefix: 'AV-' } });
    expect(settings.body.credit_note_prefix).toBe('AV-');
    const second = await createSentInvoice(placed.key);
    const note = (await credit(placed.key, second.id)).body;
    expect(note.number).toBe('AV-000002');
    expect((await open(note.hosted_url)).status).toBe(200);
    expect((await rowsById('credit_notes', note.id))).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });
  });
});
