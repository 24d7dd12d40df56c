// §15 through the worker: units, line and document discounts, tax categories and their reasons,
// the workspace's rounding mode copied onto each invoice, the breakdown, and the parties' ids
// snapshotted at send. The engine's arithmetic at its edges is test/money/document-totals.test.ts.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { issueDueInvoices } from '../../src/modules/recurring-invoices/issue';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';

const design = { description: 'Design work', quantity: 3, unit: 'HUR', unit_amount: 10_005, discount_percent: 10, tax_rate: 19 };
const hosting = { description: 'Hosting', quantity: 1, unit: 'MON', unit_amount: 5_000, tax_rate: 7 };

async function setIssuer(key: string, issuer: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const res = await call('PATCH', '/api/workspace', { key, body: { issuer: { legal_name: 'Studio GmbH', ...issuer }, ...more } });
  expect(res.status).toBe(200);
  return res.body;
}

describe('lines, discounts and the breakdown', () => {
  it('computes each line and the document discount split over its tax groups', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const res = await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: [design, hosting], discount: { amount: 1_000, reason: 'Loyalty' }, purchase_order: 'PO-7' },
    });
    expect(res.status).toBe(201);
    // Design: gross 30015, discount round(3001.5) = 3002, net 27013, tax round(5132.47) = 5132.
    expect(res.body.line_items[0]).toMatchObject({ unit: 'HUR', gross: 30_015, discount_percent: 10, discount_amount: 3_002, amount: 27_013, tax_category: 'S', tax: 5_132 });
    expect(res.body.line_items[1]).toMatchObject({ unit: 'MON', gross: 5_000, discount_amount: 0, amount: 5_000, tax: 350 });
    // 1000 split 27013 : 5000 → 843.8… and 156.1…: 843 + 156 = 999, the last unit to the larger remainder (0.8…).
    expect(res.body).toMatchObject({
      subtotal: 32_013, discount: { amount: 1_000, percent: null, reason: 'Loyalty' }, discount_total: 1_000, purchase_order: 'PO-7', tax_rounding: 'line',
      tax_breakdown: [
        { category: 'S', rate: 19, taxable_amount: 26_169, discount_amount: 844, tax_amount: 5_132 - 160 },
        { category: 'S', rate: 7, taxable_amount: 4_844, discount_amount: 156, tax_amount: 350 - 11 },
      ],
      tax: 4_972 + 339, total: 32_013 - 1_000 + 5_311, amount_due: 36_324,
    });

    // The page the client sees adds up too: the discount is printed between subtotal and tax, with its
    // reason (§20), and each rate's base carries its share of it.
    const page = await call('GET', `/v1/invoices/${res.body.id}/preview`, { key: user.key });
    expect(page.body).toMatch(/Subtotal<\/span><span>\$320\.13<\/span><\/div><div><span>Discount \(Loyalty\)<\/span><span>-\$10\.00</);
    expect(page.body).toContain('Tax 19 % on $261.69, Discount -$8.44');

    // A discount alone can change; the lines stay as they are.
    const patched = await call('PATCH', `/v1/invoices/${res.body.id}`, { key: user.key, body: { discount: { percent: 50 } } });
    expect(patched.status).toBe(200);
    expect(patched.body.line_items.map((l: { id: string }) => l.id)).toEqual(res.body.line_items.map((l: { id: string }) => l.id));
    expect(patched.body).toMatchObject({ subtotal: 32_013, discount_total: 16_007, discount: { percent: 50, amount: null } });
    const cleared = await call('PATCH', `/v1/invoices/${res.body.id}`, { key: user.key, body: { discount: null } });
    expect(cleared.body).toMatchObject({ discount: null, discount_total: 0, total: 32_013 + 5_132 + 350 });
    expect((await call('GET', `/v1/invoices/${res.body.id}`, { key: user.key })).body).toMatchObject({ discount: null, total: cleared.body.total });
  });

  it('copies the workspace rounding mode onto each invoice, which keeps it when the setting changes', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const halves = Array.from({ length: 4 }, () => ({ description: 'Half', quantity: 1, unit_amount: 5, tax_rate: 10 }));
    const byLine = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: halves } })).body;
    expect((await call('PATCH', '/api/workspace', { key: user.key, body: { tax_rounding: 'group' } })).body.tax_rounding).toBe('group');
    const byGroup = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: halves } })).body;
    expect(byLine).toMatchObject({ tax_rounding: 'line', subtotal: 20, tax: 4, total: 24 });
    expect(byGroup).toMatchObject({ tax_rounding: 'group', subtotal: 20, tax: 2, total: 22, tax_breakdown: [{ category: 'S', rate: 10, taxable_amount: 20, tax_amount: 2 }] });
    expect(byGroup.line_items.every((l: { tax: unknown }) => l.tax === null)).toBe(true);
    // Editing the first invoice's lines later still rounds by line.
    const edited = await call('PATCH', `/v1/invoices/${byLine.id}`, { key: user.key, body: { line_items: halves } });
    expect(edited.body).toMatchObject({ tax_rounding: 'line', tax: 4 });
  });

  it('refuses what §15 forbids, naming each field, and writes nothing', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const zero = { description: 'Export', quantity: 1, unit_amount: 1_000, tax_rate: 0 };
    const cases: [Record<string, unknown>, string[]][] = [
      [{ line_items: [{ ...zero, tax_category: 'E' }] }, ['tax_exemption_reason']],
      [{ line_items: [design, { ...zero, tax_category: 'O' }] }, ['line_items.1.tax_category']],
      [{ line_items: [{ ...design, tax_category: 'K' }] }, ['line_items.0.tax_rate']],
      [{ line_items: [{ ...zero, tax_category: 'S' }] }, ['line_items.0.tax_rate']],
      [{ line_items: [zero], discount: { amount: 1_001 } }, ['discount.amount']],
      [{ line_items: [zero], discount: { amount: 1, percent: 1 } }, ['discount']],
      [{ line_items: [zero], discount: {} }, ['discount']],
      [{ line_items: [{ ...zero, unit: 'parsecs' }] }, ['line_items.0.unit']],
      [{ line_items: [{ ...zero, discount_percent: 100.5 }] }, ['line_items.0.discount_percent']],
      [{ line_items: [{ ...zero, tax_category: 'AE' }], tax_exemption_code: 'EU-AE' }, ['tax_exemption_code']],
    ];
    for (const [body, paths] of cases) {
      const res = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, ...body } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), JSON.stringify(body)).toEqual(paths);
    }
    expect((await call('GET', '/v1/invoices', { key: user.key })).body.data).toEqual([]);
  });

  it('defaults rate-0 lines to O without a VAT id and to Z with one, and gives each exempt group its reason', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const zero = { description: 'Consulting', quantity: 1, unit_amount: 1_000 };
    const notSubject = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [zero] } })).body;
    expect(notSubject.line_items[0].tax_category).toBe('O');
    expect(notSubject.tax_breakdown).toEqual([{ category: 'O', rate: 0, taxable_amount: 1_000, tax_amount: 0, discount_amount: 0, exemption_reason: 'Not subject to VAT', exemption_code: null }]);

    await setIssuer(user.key, { vat_id: 'de 123 456 789' });
    const zeroRated = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [zero] } })).body;
    expect(zeroRated.line_items[0].tax_category).toBe('Z');

    const reverse = await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: [{ ...zero, tax_category: 'AE' }, { ...zero, tax_category: 'E' }], tax_exemption_reason: 'Education', tax_exemption_code: 'vatex-eu-132-1i' },
    });
    expect(reverse.status).toBe(201);
    expect(reverse.body).toMatchObject({ tax_exemption_reason: 'Education', tax_exemption_code: 'VATEX-EU-132-1I' });
    expect(reverse.body.tax_breakdown.map((g: Record<string, unknown>) => [g.category, g.exemption_reason, g.exemption_code])).toEqual([
      ['AE', 'Reverse charge', null], ['E', 'Education', 'VATEX-EU-132-1I'],
    ]);
  });
});

describe('the parties', () => {
  it('checks the issuer\'s ids and a client\'s VAT id, and keeps tax_id as free text', async () => {
    const user = await createUser();
    const bad = await call('PATCH', '/api/workspace', {
      key: user.key,
      body: { issuer: { vat_id: 'DE', peppol_id: '88:579', iban: 'DE89 3704 0044 0532 0130 01', bic: 'COBA' } },
    });
    expectError(bad, 422, 'validation_failed');
    expect(errorPaths(bad).sort()).toEqual(['issuer.bic', 'issuer.iban', 'issuer.peppol_id', 'issuer.vat_id']);
    const ws = await setIssuer(user.key, { vat_id: 'DE123456789', registration_id: 'HRB 12345', peppol_id: '9930:DE123456789', iban: 'de89 3704 0044 0532 0130 00', bic: 'cobadeffxxx' });
    expect(ws.issuer).toMatchObject({ vat_id: 'DE123456789', registration_id: 'HRB 12345', peppol_id: '9930:DE123456789', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });

    expect(errorPaths(await call('POST', '/api/workflow/clients', { key: user.key, body: { name: 'X', vat_id: '123456789' } }))).toEqual(['vat_id']);
    expect(errorPaths(await call('POST', '/api/workflow/clients', { key: user.key, body: { name: 'X', vat_id: 'FR12345678901', tax_id: 'x' } }))).toEqual(['vat_id']);
    const free = await createClient(user.key, { tax_id: 'EIN 12-3456789' });
    expect(free).toMatchObject({ tax_id: 'EIN 12-3456789', vat_id: 'EIN 12-3456789' });
    const eu = await createClient(user.key, { vat_id: 'FR 12 345678901', peppol_id: '0009:12345678901234', buyer_reference: '04011000-12345-34' });
    expect(eu).toMatchObject({ tax_id: 'FR12345678901', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234', buyer_reference: '04011000-12345-34' });
  });

  it('snapshots them at send, with the buyer reference defaulting to the client\'s', async () => {
    const user = await createUser();
    await setIssuer(user.key, { vat_id: 'DE123456789', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', peppol_id: '9930:DE123456789' });
    const client = await createClient(user.key, { vat_id: 'NL123456789B01', peppol_id: '9944:NL123456789B01', buyer_reference: 'LEITWEG-1' });
    const draft = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [design] } })).body;
    expect(draft.buyer_reference).toBe('LEITWEG-1');
    const sent = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: user.key, body: { email: false } })).body;
    expect(sent.issuer).toMatchObject({ vat_id: 'DE123456789', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', peppol_id: '9930:DE123456789', registration_id: null });
    expect(sent.bill_to).toMatchObject({ vat_id: 'NL123456789B01', peppol_id: '9944:NL123456789B01', buyer_reference: 'LEITWEG-1' });

    await setIssuer(user.key, { vat_id: 'DE999999999' });
    await call('PATCH', `/api/workflow/clients/${client.id}`, { key: user.key, body: { vat_id: 'NL999999999B01', buyer_reference: 'CHANGED' } });
    const later = (await call('GET', `/v1/invoices/${draft.id}`, { key: user.key })).body;
    expect(later).toMatchObject({ buyer_reference: 'LEITWEG-1', issuer: { vat_id: 'DE123456789' }, bill_to: { vat_id: 'NL123456789B01', buyer_reference: 'LEITWEG-1' } });
  });

  it('moves a draft\'s buyer reference with its client, unless the change names one', async () => {
    const user = await createUser();
    const first = await createClient(user.key, { buyer_reference: 'LEITWEG-A' });
    const second = await createClient(user.key, { name: 'Other GmbH', buyer_reference: 'LEITWEG-B' });
    const draft = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: first.id, line_items: [design] } })).body;
    expect(draft.buyer_reference).toBe('LEITWEG-A');
    const moved = (await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { client_id: second.id } })).body;
    expect(moved.buyer_reference).toBe('LEITWEG-B');
    const named = (await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { client_id: first.id, buyer_reference: 'PO-7' } })).body;
    expect(named.buyer_reference).toBe('PO-7');
    const sent = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: user.key, body: { email: false } })).body;
    expect(sent.buyer_reference).toBe('PO-7');
  });
});

describe('recurring invoices', () => {
  it('carry the line model, show their breakdown and pass everything to the invoices they issue', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { buyer_reference: 'REF-9' });
    const today = new Date().toISOString().slice(0, 10);
    const res = await call('POST', '/v1/recurring-invoices', {
      key: user.key,
      body: {
        client_id: client.id, interval: 'month', start_date: today,
        line_items: [design, { description: 'Course', quantity: 1, unit: 'E48', unit_amount: 2_000, tax_category: 'E' }],
        discount: { percent: 10, reason: 'Retainer' }, tax_exemption_reason: 'Education', purchase_order: 'PO-1',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tax_rounding: 'line', subtotal: 29_013, discount_total: 2_901, discount: { percent: 10, reason: 'Retainer' }, tax_exemption_reason: 'Education', purchase_order: 'PO-1', buyer_reference: null,
      tax_breakdown: [{ category: 'S', rate: 19, discount_amount: 2_701 }, { category: 'E', rate: 0, discount_amount: 200, exemption_reason: 'Education' }],
    });
    expect(res.body.line_items[1]).toMatchObject({ unit: 'E48', tax_category: 'E', tax: 0 });
    const refused = await call('PATCH', `/v1/recurring-invoices/${res.body.id}`, { key: user.key, body: { tax_exemption_reason: null } });
    expect(errorPaths(refused)).toEqual(['tax_exemption_reason']);

    await issueDueInvoices(env);
    const [issued] = (await call('GET', `/v1/invoices?recurring_invoice_id=${res.body.id}`, { key: user.key })).body.data;
    const invoice = (await call('GET', `/v1/invoices/${issued.id}`, { key: user.key })).body;
    expect(invoice).toMatchObject({
      subtotal: res.body.subtotal, discount_total: res.body.discount_total, tax: res.body.tax, total: res.body.total, tax_breakdown: res.body.tax_breakdown,
      discount: res.body.discount, tax_exemption_reason: 'Education', purchase_order: 'PO-1', buyer_reference: 'REF-9', tax_rounding: 'line',
    });
    expect(invoice.line_items.map((l: Record<string, unknown>) => [l.unit, l.tax_category, l.amount])).toEqual([['HUR', 'S', 27_013], ['E48', 'E', 2_000]]);
  });
});
