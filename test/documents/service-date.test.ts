// §20 "Service date" and "Preview": an invoice states its date or period of supply (at most one), the
// XML carries it (BT-72, BG-14), the page prints it or says the issue date stands for it; a quote passes
// its own to the invoice it becomes; and a draft's preview shows the issuer and the client as sending
// would snapshot them now.
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';

const line = [{ description: 'Design', quantity: 1, unit_amount: 10_000, tax_rate: 19 }];

async function studio() {
  const owner = await createUser('Owner');
  const patched = await call('PATCH', '/api/workspace', {
    key: owner.key,
    body: {
      locale: 'de-DE',
      issuer: { legal_name: 'Ada Studio GmbH', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' }, vat_id: 'DE123456789', tax_id: '27/123/45678', registration_id: 'HRB 1' },
    },
  });
  expect(patched.status).toBe(200);
  const client = await createClient(owner.key, { name: 'Bill Lumbergh', company: 'Initrode Inc.', currency: 'EUR', address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'US' } });
  return { owner, client };
}

describe('the date of supply', () => {
  it('takes a date or a period, never both, on create and on a draft, and prints and carries it', async () => {
    const { owner, client } = await studio();
    const both = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: line, service_date: '2026-03-02', service_period: { start: '2026-03-01', end: '2026-03-31' } } });
    expectError(both, 422, 'validation_failed');
    expect(errorPaths(both)).toEqual(['service_period']);
    const backwards = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: line, service_period: { start: '2026-03-31', end: '2026-03-01' } } });
    expect(errorPaths(backwards)).toEqual(['service_period.end']);

    const created = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: line, issue_date: '2026-04-01', service_date: '2026-03-02' } });
    expect(created.body).toMatchObject({ service_date: '2026-03-02', service_period: null });
    const preview = (await call('GET', `/v1/invoices/${created.body.id}/preview`, { key: owner.key })).body as string;
    expect(preview).toContain('Leistungsdatum 2. März 2026');

    // Giving the period replaces the date.
    const patched = await call('PATCH', `/v1/invoices/${created.body.id}`, { key: owner.key, body: { service_period: { start: '2026-03-01', end: '2026-03-31' } } });
    expect(patched.body).toMatchObject({ service_date: null, service_period: { start: '2026-03-01', end: '2026-03-31' } });
    await call('POST', `/v1/invoices/${created.body.id}/send`, { key: owner.key, body: { email: false } });
    const page = (await call('GET', `/v1/invoices/${created.body.id}/preview`, { key: owner.key })).body as string;
    expect(page).toContain('Leistungszeitraum 1. März 2026 – 31. März 2026');
    const cii = (await call('GET', `/v1/invoices/${created.body.id}/e-invoice?format=cii`, { key: owner.key })).body as string;
    expect(cii).toContain('<ram:BillingSpecifiedPeriod><ram:StartDateTime><udt:DateTimeString format="102">20260301</udt:DateTimeString></ram:StartDateTime><ram:EndDateTime><udt:DateTimeString format="102">20260331</udt:DateTimeString></ram:EndDateTime></ram:BillingSpecifiedPeriod>');

    // With neither, the issue date stands for it.
    const plain = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: line } });
    expect((await call('GET', `/v1/invoices/${plain.body.id}/preview`, { key: owner.key })).body).toContain('Leistungsdatum entspricht Rechnungsdatum');
  });

  it('passes from an accepted quote to its invoice', async () => {
    const { owner, client } = await studio();
    const quote = await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: line, service_period: { start: '2026-05-01', end: '2026-05-15' } } });
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    expect(quote.body.service_period).toEqual({ start: '2026-05-01', end: '2026-05-15' });
    await call('POST', `/v1/quotes/${quote.body.id}/send`, { key: owner.key, body: { email: false } });
    expect((await call('POST', `/v1/quotes/${quote.body.id}/accept`, { key: owner.key, body: { name: 'Bill Lumbergh', method: 'email' } })).status).toBe(200);
    const converted = await call('POST', `/v1/quotes/${quote.body.id}/convert`, { key: owner.key });
    expect(converted.status, JSON.stringify(converted.body)).toBe(201);
    const invoice = (await call('GET', `/v1/invoices/${converted.body.invoice_id ?? converted.body.id}`, { key: owner.key })).body;
    expect(invoice.service_period).toEqual({ start: '2026-05-01', end: '2026-05-15' });
  });
});

describe('the preview of a draft', () => {
  it('shows the issuer and the client as sending would snapshot them now: address, both numbers, country names', async () => {
    const { owner, client } = await studio();
    const draft = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: line } });
    const page = (await call('GET', `/v1/invoices/${draft.body.id}/preview`, { key: owner.key })).body as string;
    for (const text of ['Ada Studio GmbH', 'Hauptstraße 1', '10115 Berlin', 'Deutschland', 'USt-IdNr. DE123456789', 'Steuernummer 27/123/45678', 'Registernummer HRB 1', 'Initrode Inc.', 'Springfield, IL 62704', 'Vereinigte Staaten', 'ENTWURF']) {
      expect(page, text).toContain(text);
    }
  });
});
