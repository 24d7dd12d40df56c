// Between workspaces (§21): an invoice or credit note sent to a client whose Peppol id is the issuer's of another
// workspace on this service arrives in that workspace's inbound documents at once, as its UBL (`source:
// "network"`), wherever each workspace's records live, and the sender's side records invoice.delivered
// (credit_note.delivered). It goes to no one when the id is claimed by none or by two, when the client's VAT id
// contradicts the claimant's, and when the document is not a valid UBL yet; a send to anyone else is untouched.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/lib/db';
import { claimsOf } from '../../src/modules/inbound-documents/network-recipient';
import { call, open } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import { readOnQueue } from '../helpers/inbound';
import { DATABASES, type DatabaseName, workspaceOn } from '../scaling/helpers';
import { exportedXml, SUPPLIER_ISSUER, type Supplier, supplierStudio } from './exports';
import { documentOf, eventsOf } from './in-review';

let supplier: Supplier;
let queued: { document_id: string; database?: string }[];

beforeAll(async () => {
  supplier = await supplierStudio();
});

beforeEach(() => {
  vi.restoreAllMocks();
  queued = [];
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockImplementation(async (body) => void queued.push(body as never) as never);
});

const newPeppolId = () => `9930:DE${String(crypto.getRandomValues(new Uint32Array(1))[0]).padStart(9, '9').slice(0, 9)}`;

/** A workspace whose issuer claims `peppolId` (its records on `database`). */
async function receiverOn(database: DatabaseName, peppolId: string, vatId: string | null = null) {
  const workspace = await workspaceOn(database, `receiver-${database}`);
  const issuer = { legal_name: 'Bo Books Ltd', address: { line1: '1 High St', city: 'Leeds', postal_code: 'LS1 1AA', country: 'GB' }, peppol_id: peppolId, vat_id: vatId };
  const res = await call('PATCH', '/api/workspace', { key: workspace.key, body: { issuer } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return workspace;
}

/** The supplier's client with that Peppol id, billed with everything a Peppol UBL needs unless told otherwise. */
const clientWithPeppolId = (peppolId: string, more: Record<string, unknown> = {}) =>
  createClient(supplier.owner.key, { name: 'Bo Books Ltd', currency: 'EUR', peppol_id: peppolId, buyer_reference: 'BB-1', address: { line1: '1 High St', city: 'Leeds', postal_code: 'LS1 1AA', country: 'GB' }, ...more });

async function sendTo(clientId: string) {
  const draft = await call('POST', '/v1/invoices', {
    key: supplier.owner.key, body: { client_id: clientId, line_items: [{ description: 'Bookkeeping templates', quantity: 2, unit_amount: 12_345, tax_rate: 19 }] },
  });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const sent = await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: supplier.owner.key, body: { email: false } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body as { id: string; number: string; total: number; subtotal: number; tax: number };
}

const networkDocuments = async (key: string) =>
  (await call('GET', '/v1/inbound-documents?source=network&limit=100', { key })).body.data as { id: string; filename: string; source: string }[];
const deliveredEvents = async (type: string) => (await eventsOf(supplier.owner.key, type)) as { data: { object: { id: string }; delivered_to: unknown }; actor: unknown }[];

describe('delivery to a workspace of this service', () => {
  it.each(DATABASES)('puts a sent invoice\'s UBL into the workspace whose issuer has the client\'s Peppol id (its records on %s), read like any other', async (database) => {
    const peppolId = newPeppolId();
    const receiver = await receiverOn(database, peppolId);
    // Peppol ids compare without regard to case.
    const client = await clientWithPeppolId(peppolId.toLowerCase());
    const invoice = await sendTo(client.id);

    const [arrived] = await networkDocuments(receiver.key);
    expect(arrived).toMatchObject({ source: 'network', status: 'received', filename: `${invoice.number}.ubl.xml`, content_type: 'application/xml', from: null });
    // The very UBL the client would download, byte for byte.
    const file = await open(`https://workspace.test/v1/inbound-documents/${arrived!.id}/file`, { headers: { Authorization: `Bearer ${receiver.key}` } });
    expect(await file.text()).toBe(await exportedXml(supplier, invoice.id, 'ubl'));
    expect(queued).toEqual([{ document_id: arrived!.id, ...(database === 'DB' ? {} : { database }) }]);
    const [received] = await eventsOf(receiver.key, 'inbound_document.received');
    expect(received!.actor).toEqual({ type: 'system', id: null, name: 'network delivery' });

    await readOnQueue(arrived!.id, { database });
    expect(await documentOf(receiver.key, arrived!.id)).toMatchObject({
      status: 'needs_review', format: 'ubl', extraction: 'xml',
      extracted: { kind: 'invoice', number: invoice.number, currency: 'EUR', subtotal: invoice.subtotal, tax: invoice.tax, total: invoice.total, supplier: { vat_id: SUPPLIER_ISSUER.vat_id } },
      validation: { valid: true },
    });
    const accepted = await call('POST', `/v1/inbound-documents/${arrived!.id}/accept`, { key: receiver.key, body: { category: 'software' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const delivered = (await deliveredEvents('invoice.delivered')).filter((e) => e.data.object.id === invoice.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.data.delivered_to).toEqual({ peppol_id: peppolId.toLowerCase() });
    expect(delivered[0]!.actor).toMatchObject({ type: 'user', id: supplier.owner.id });
  });

  it('delivers a credit note too, read as one', async () => {
    const peppolId = newPeppolId();
    const receiver = await receiverOn('DB_WORKSPACES_2', peppolId);
    const invoice = await sendTo((await clientWithPeppolId(peppolId)).id);
    const note = await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: supplier.owner.key, body: { reason: 'order_change', email: false } });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    const documents = await networkDocuments(receiver.key);
    expect(documents.map((d) => d.filename)).toEqual([`${note.body.number}.ubl.xml`, `${invoice.number}.ubl.xml`]);
    await readOnQueue(documents[0]!.id, { database: 'DB_WORKSPACES_2' });
    expect((await documentOf(receiver.key, documents[0]!.id)).extracted).toMatchObject({ kind: 'credit_note', number: note.body.number, total: note.body.total });
    const [event] = await deliveredEvents('credit_note.delivered');
    expect(event!.data.object).toMatchObject({ id: note.body.id, number: note.body.number });
  });
});

describe('no delivery', () => {
  it('when no workspace, or two, claim the Peppol id, or the claimant\'s VAT id is not the client\'s', async () => {
    const nobody = newPeppolId();
    await sendTo((await clientWithPeppolId(nobody)).id);

    const twice = newPeppolId();
    const first = await receiverOn('DB', twice);
    const second = await receiverOn('DB_WORKSPACES_2', twice);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await sendTo((await clientWithPeppolId(twice)).id);
    expect(await networkDocuments(first.key)).toEqual([]);
    expect(await networkDocuments(second.key)).toEqual([]);

    const other = newPeppolId();
    const claimant = await receiverOn('DB', other, 'GB123456789');
    await sendTo((await clientWithPeppolId(other, { vat_id: 'GB987654321' })).id);
    expect(await networkDocuments(claimant.key)).toEqual([]);
    // The same VAT id, written otherwise, is the same.
    await sendTo((await clientWithPeppolId(other, { vat_id: 'gb 123 456 789' })).id);
    expect(await networkDocuments(claimant.key)).toHaveLength(1);
    expect(queued).toHaveLength(1);
  });

  it('when the invoice is not a valid UBL yet: no document, no event, the invoice sent all the same', async () => {
    const peppolId = newPeppolId();
    const receiver = await receiverOn('DB', peppolId);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = await clientWithPeppolId(peppolId, { buyer_reference: null });
    const invoice = await sendTo(client.id);
    expect(await networkDocuments(receiver.key)).toEqual([]);
    expect((await deliveredEvents('invoice.delivered')).filter((e) => e.data.object.id === invoice.id)).toEqual([]);
  });

  it('to the sender itself, or for a client with no Peppol id', async () => {
    const self = await sendTo((await clientWithPeppolId(SUPPLIER_ISSUER.peppol_id)).id);
    const plain = await sendTo((await createClient(supplier.owner.key, { name: 'Walk-in' })).id);
    expect(await networkDocuments(supplier.owner.key)).toEqual([]);
    expect((await deliveredEvents('invoice.delivered')).filter((e) => [self.id, plain.id].includes(e.data.object.id))).toEqual([]);
  });
});

it('finds the claimant through the issuer Peppol id index', async () => {
  const { sql, params } = claimsOf(createDb(env.DB), '0088:5790000435975', 'wsp_any').toSQL();
  const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all()).results.map((step) => (step as { detail: string }).detail).join('\n');
  expect(plan).toContain('USING INDEX workspaces_issuer_peppol_idx');
});

it('leaves a workspace with no Peppol id alone when it sends', async () => {
  const user = await createUser();
  const client = await createClient(user.key, { peppol_id: newPeppolId() });
  const draft = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [{ description: 'x', quantity: 1, unit_amount: 100 }] } });
  expect((await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: user.key, body: { email: false } })).status).toBe(200);
  expect(queued).toEqual([]);
});
