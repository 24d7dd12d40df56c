// §20 "Small businesses" through the worker: an issuer with small_business: true bills lines that name no
// tax in category E at 0 with its country's note in the document's language (§19 UStG, CGI art. 293 B),
// which the e-invoice carries as BT-120 beside the tax number (BT-32) of an issuer without a VAT id; a rate
// above 0 is a 422 naming the field.
import { describe, expect, it } from 'vitest';
import { validateEInvoice } from '../../src/modules/documents/einvoice/rules';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createProject, createUser } from '../helpers/factories';

const untaxed = { description: 'Beratung', quantity: 2, unit: 'HUR', unit_amount: 10_000 };
const address = (country: string) => ({ line1: 'Straße 1', city: 'Stadt', postal_code: '12345', country });
const GERMAN_NOTE = 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.';

/** A small business in `country` with a tax number and no VAT id, writing in `locale`, and a client at home. */
async function smallBusiness(country: string, locale: string, more: Record<string, unknown> = {}) {
  const user = await createUser();
  const res = await call('PATCH', '/api/workspace', {
    key: user.key,
    body: {
      locale,
      issuer: { legal_name: 'Ada Lovelace', address: address(country), tax_id: '12/345/67890', registration_id: 'HRA 4711', small_business: true },
      ...more,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.issuer).toMatchObject({ small_business: true, vat_id: null, tax_id: '12/345/67890' });
  const client = await createClient(user.key, { name: 'Kunde GmbH', currency: 'EUR', address: address(country) });
  return { user, client };
}

async function invoiceFor(key: string, clientId: string, lines: Record<string, unknown>[] = [untaxed]) {
  const res = await call('POST', '/v1/invoices', { key, body: { client_id: clientId, currency: 'EUR', line_items: lines } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('a small business', () => {
  it('bills E at 0 with the §19 UStG note, which its e-invoice carries as BT-120 beside its tax number (BT-32)', async () => {
    const { user, client } = await smallBusiness('DE', 'de-DE', { default_tax_rate: 19 });
    const draft = await invoiceFor(user.key, client.id, [untaxed, { ...untaxed, tax_rate: 0 }]);
    expect(draft.line_items.map((l: { tax_category: string; tax_rate: number }) => [l.tax_category, l.tax_rate])).toEqual([['E', 0], ['E', 0]]);
    expect(draft).toMatchObject({ tax: 0, total: 40_000, tax_exemption_reason: null });
    expect(draft.tax_breakdown).toEqual([{ category: 'E', rate: 0, taxable_amount: 40_000, tax_amount: 0, discount_amount: 0, exemption_reason: GERMAN_NOTE, exemption_code: null }]);
    const check = (await call('GET', `/v1/invoices/${draft.id}/e-invoice/check`, { key: user.key })).body;
    expect(check).toMatchObject({ ready: true, problems: [], warnings: [] });

    const sent = await call('POST', `/v1/invoices/${draft.id}/send`, { key: user.key, body: { email: false } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const cii = await call('GET', `/v1/invoices/${draft.id}/e-invoice?format=cii`, { key: user.key });
    expect(cii.status, String(cii.body)).toBe(200);
    const xml = String(cii.body);
    expect(xml).toContain(`<ram:ExemptionReason>${GERMAN_NOTE}</ram:ExemptionReason>`);
    expect(xml).toContain('<ram:CategoryCode>E</ram:CategoryCode>');
    expect(xml).toContain('<ram:ID schemeID="FC">12/345/67890</ram:ID>');
    expect(xml).not.toContain('schemeID="VA"');
    expect(validateEInvoice(xml).failures).toEqual([]);

    // Its credit note keeps the group's note.
    const note = await call('POST', `/v1/invoices/${draft.id}/credit-notes`, { key: user.key, body: { reason: 'order_change', email: false, lines: [{ line_item_id: draft.line_items[0].id, quantity: 1 }] } });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body.tax_breakdown).toMatchObject([{ category: 'E', exemption_reason: GERMAN_NOTE }]);
    const noteXml = String((await call('GET', `/v1/credit-notes/${note.body.id}/e-invoice?format=cii`, { key: user.key })).body);
    expect(noteXml).toContain(`<ram:ExemptionReason>${GERMAN_NOTE}</ram:ExemptionReason>`);
    expect(validateEInvoice(noteXml).failures).toEqual([]);
  });

  it('writes the note of its country in the document\'s language, the Directive\'s in that language where its country has none', async () => {
    const french = await smallBusiness('FR', 'fr-FR');
    expect((await invoiceFor(french.user.key, french.client.id)).tax_breakdown[0].exemption_reason).toBe('TVA non applicable, art. 293 B du CGI');
    const germanInEnglish = await smallBusiness('DE', 'en-GB');
    expect((await invoiceFor(germanInEnglish.user.key, germanInEnglish.client.id)).tax_breakdown[0].exemption_reason).toBe('No VAT is charged under § 19 UStG (special scheme for small enterprises).');
    const germanInItalian = await smallBusiness('DE', 'it-IT');
    expect((await invoiceFor(germanInItalian.user.key, germanInItalian.client.id)).tax_breakdown[0].exemption_reason).toBe('Franchigia IVA: regime speciale delle piccole imprese (articolo 284 della direttiva 2006/112/CE).');
    const spanish = await smallBusiness('ES', 'de-DE');
    expect((await invoiceFor(spanish.user.key, spanish.client.id)).tax_breakdown[0].exemption_reason).toBe('Umsatzsteuerbefreit: Sonderregelung für Kleinunternehmen (Art. 284 der Richtlinie 2006/112/EG).');
    // A reason of the invoice's own replaces the note.
    const own = await call('POST', '/v1/invoices', { key: french.user.key, body: { client_id: french.client.id, line_items: [untaxed], tax_exemption_reason: 'Franchise en base' } });
    expect(own.body.tax_breakdown[0].exemption_reason).toBe('Franchise en base');
  });

  it('refuses a rate above 0 on a line, a draft edit, a quote, a template or from-time, naming the field', async () => {
    const { user, client } = await smallBusiness('DE', 'de-DE');
    const taxed = { ...untaxed, tax_rate: 19 };
    const created = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [untaxed, taxed] } });
    expectError(created, 422, 'validation_failed');
    expect(errorPaths(created)).toEqual(['line_items.1.tax_rate']);
    expect(created.body.error.details[0].message).toMatch(/small business/);
    const draft = await invoiceFor(user.key, client.id);
    expect(errorPaths(await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { line_items: [taxed] } }))).toEqual(['line_items.0.tax_rate']);
    // A draft's other changes keep its E group and its note.
    const discounted = await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { discount: { percent: 10 } } });
    expect(discounted.status, JSON.stringify(discounted.body)).toBe(200);
    expect(discounted.body.tax_breakdown).toMatchObject([{ category: 'E', exemption_reason: GERMAN_NOTE, taxable_amount: 18_000 }]);
    expect(errorPaths(await call('POST', '/v1/quotes', { key: user.key, body: { client_id: client.id, line_items: [taxed] } }))).toEqual(['line_items.0.tax_rate']);
    const today = new Date().toISOString().slice(0, 10);
    expect(errorPaths(await call('POST', '/v1/recurring-invoices', { key: user.key, body: { client_id: client.id, interval: 'month', start_date: today, line_items: [taxed] } }))).toEqual(['line_items.0.tax_rate']);
    const template = await call('POST', '/v1/recurring-invoices', { key: user.key, body: { client_id: client.id, interval: 'month', start_date: today, line_items: [untaxed] } });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    expect(template.body).toMatchObject({ tax_exemption_reason: GERMAN_NOTE, tax_breakdown: [{ category: 'E', exemption_reason: GERMAN_NOTE }] });

    const project = await createProject(user.key, { client_id: client.id, hourly_rate: 10_000, currency: 'EUR' });
    expect((await call('POST', '/v1/time-entries', { key: user.key, body: { project_id: project.id, duration_seconds: 3_600, spent_date: '2026-10-01' } })).status).toBe(201);
    const fromTime = await call('POST', '/v1/invoices/from-time', { key: user.key, body: { client_id: client.id, tax_rate: 19 } });
    expectError(fromTime, 422, 'validation_failed');
    expect(errorPaths(fromTime)).toEqual(['tax_rate']);
    const billed = await call('POST', '/v1/invoices/from-time', { key: user.key, body: { client_id: client.id } });
    expect(billed.status, JSON.stringify(billed.body)).toBe(201);
    expect(billed.body.tax_breakdown).toMatchObject([{ category: 'E', exemption_reason: GERMAN_NOTE }]);
  });
});
