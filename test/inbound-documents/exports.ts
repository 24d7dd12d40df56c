// Real inputs for receiving (§21): e-invoices a second workspace on this service issues, exported through the
// API as its client gets them (the CII and UBL of GET …/invoices/{id}/e-invoice, the Factur-X PDF of
// GET …/invoices/{id}/pdf). The supplier is a German studio billing a French business: every field a complete
// EN 16931 invoice needs.
import { expect } from 'vitest';
import { call, open } from '../helpers/api';
import { createClient, createUser, type TestUser } from '../helpers/factories';

export const SUPPLIER_ISSUER = {
  legal_name: 'Ada Studio GmbH',
  email: 'billing@ada.example',
  address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  vat_id: 'DE123456789',
  peppol_id: '9930:DE123456789',
  iban: 'DE89370400440532013000',
};

export type Supplier = { owner: TestUser; clientId: string };

/** A workspace whose issuer and client make every invoice it sends a ready e-invoice. */
export async function supplierStudio(): Promise<Supplier> {
  const owner = await createUser('Supplier');
  const settings = await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer: SUPPLIER_ISSUER } });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const client = await createClient(owner.key, {
    name: 'Client SARL', email: 'ap@client.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234',
    buyer_reference: 'PO-77', address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
  });
  return { owner, clientId: client.id };
}

/** A sent invoice of `lines` lines (two VAT rates when more than one). */
export async function sentInvoice(supplier: Supplier, lines = 1) {
  const draft = await call('POST', '/v1/invoices', {
    key: supplier.owner.key,
    body: {
      client_id: supplier.clientId, currency: 'EUR',
      line_items: Array.from({ length: lines }, (_, i) => ({ description: `Design work, part ${i + 1}`, quantity: 1.5, unit: 'HUR', unit_amount: 9_999, tax_rate: i % 2 ? 7 : 19 })),
    },
  });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const sent = await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: supplier.owner.key, body: { email: false } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body as { id: string; number: string; total: number; subtotal: number; tax: number };
}

/** The invoice's e-invoice as its client downloads it. */
export async function exportedXml(supplier: Supplier, invoiceId: string, format: 'cii' | 'ubl'): Promise<string> {
  const res = await call('GET', `/v1/invoices/${invoiceId}/e-invoice?format=${format}`, { key: supplier.owner.key });
  expect(res.status, String(res.body).slice(0, 300)).toBe(200);
  return String(res.body);
}

/** The invoice's Factur-X PDF (its CII embedded as factur-x.xml). */
export async function exportedPdf(supplier: Supplier, invoiceId: string): Promise<Uint8Array> {
  const res = await open(`https://workspace.test/v1/invoices/${invoiceId}/pdf`, { headers: { Authorization: `Bearer ${supplier.owner.key}` } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}
