// Reading received documents on the queue (§21): our own CII and UBL exports from a second workspace are read
// into `extracted` with the EN 16931 verdict and left for review, with inbound_document.processed; the consumer is
// idempotent per document (a message twice reads once; a document past `received` is left alone; one another
// delivery holds is looked at again later), gives its claim back and retries a reading that threw, and after the
// last retry fails the document with a reason.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { readOnQueue, TINY_PNG, uploadDocument } from '../helpers/inbound';
import { consumerMaxRetries, deliver } from '../helpers/worker';
import { INBOUND_MAX_RETRIES, PROCESSING_LEASE_MS } from '../../src/modules/inbound-documents/consumer';
import { exportedXml, sentInvoice, type Supplier, supplierStudio } from './exports';

let supplier: Supplier;
let invoice: Awaited<ReturnType<typeof sentInvoice>>;
let cii: string;
let ubl: string;
let me: TestUser;

beforeAll(async () => {
  supplier = await supplierStudio();
  invoice = await sentInvoice(supplier, 3);
  [cii, ubl] = await Promise.all([exportedXml(supplier, invoice.id, 'cii'), exportedXml(supplier, invoice.id, 'ubl')]);
  me = await createUser('Receiver');
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

const get = async (key: string, id: string) => (await call('GET', `/v1/inbound-documents/${id}`, { key })).body;
const processedEvents = async (key: string, id: string) =>
  (await call('GET', '/api/events?type=inbound_document.processed&limit=100', { key })).body.data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === id);
const setColumns = (id: string, columns: string, ...values: unknown[]) => env.DB.prepare(`UPDATE inbound_documents SET ${columns} WHERE id = ?`).bind(...values, id).run();

async function received(body: Uint8Array | string, key = me.key) {
  const res = await uploadDocument(key, body, { contentType: 'application/xml' });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.id as string;
}

describe('reading our own e-invoices', () => {
  it('reads the CII export: what the supplier billed, its profile and a clean EN 16931 verdict, left for review', async () => {
    const id = await received(cii);
    const result = await readOnQueue(id);
    expect(result.explicitAcks).toHaveLength(1);
    const doc = await get(me.key, id);
    expect(doc).toMatchObject({
      status: 'needs_review', format: 'cii', profile: 'EN 16931', extraction: 'xml', confidence: null, failure_reason: null, duplicate_of: null,
    });
    expect(doc.validation).toMatchObject({ valid: true, errors: [] });
    expect(doc.extracted).toMatchObject({
      kind: 'invoice', number: invoice.number, currency: 'EUR', subtotal: invoice.subtotal, tax: invoice.tax, total: invoice.total,
      supplier: { name: 'Ada Studio GmbH', vat_id: 'DE123456789' },
    });
    expect(doc.extracted.lines).toHaveLength(3);
    expect(doc.extracted.tax_breakdown.map((g: { rate: number }) => g.rate).sort()).toEqual([19, 7]);
    const [event] = await processedEvents(me.key, id);
    expect(event.data.object).toEqual(doc);
    expect(event.actor).toEqual({ type: 'system', id: null, name: 'inbound' });
  });

  it('reads the UBL export of the same invoice alike, as Peppol BIS', async () => {
    const user = await createUser();
    const id = await received(ubl, user.key);
    await readOnQueue(id);
    const doc = await get(user.key, id);
    expect(doc).toMatchObject({ status: 'needs_review', format: 'ubl', extraction: 'xml' });
    expect(doc.profile).toBe('Peppol BIS 3.0');
    expect(doc.validation.valid).toBe(true);
    expect(doc.extracted).toMatchObject({ kind: 'invoice', number: invoice.number, total: invoice.total, supplier: { vat_id: 'DE123456789' } });
  });

  it('keeps the verdict of a broken e-invoice for review, its failed rules named', async () => {
    const broken = cii.replace(/<ram:GrandTotalAmount>[^<]*<\/ram:GrandTotalAmount>/, '<ram:GrandTotalAmount>1.00</ram:GrandTotalAmount>');
    const id = await received(broken);
    await readOnQueue(id);
    const doc = await get(me.key, id);
    expect(doc.status).toBe('needs_review');
    expect(doc.validation.valid).toBe(false);
    expect(doc.validation.errors.map((e: { rule: string }) => e.rule)).toContain('BR-CO-15');
  });

  it('fails what is XML but no e-invoice, or no text an e-invoice can be, with the reason', async () => {
    const cases: [Uint8Array | string, RegExp][] = [
      ['<?xml version="1.0"?><note><to>Ada</to></note>', /root element <note>/],
      [Uint8Array.from([...new TextEncoder().encode('<?xml version="1.0"?><Invoice>'), 0xff, 0xfe, 0x00, ...new TextEncoder().encode('</Invoice>')]), /not valid UTF-8/],
      ['<?xml version="1.0" encoding="ISO-8859-1"?><Invoice/>', /encoding iso-8859-1/],
    ];
    for (const [body, reason] of cases) {
      const id = await received(body);
      await readOnQueue(id);
      const doc = await get(me.key, id);
      expect(doc).toMatchObject({ status: 'failed', extracted: null, validation: null });
      expect(doc.failure_reason).toMatch(reason);
      expect(await processedEvents(me.key, id)).toHaveLength(1);
    }
  });

  it('leaves an image the local model reads nothing from for a person to fill in, its processing ended', async () => {
    const id = (await uploadDocument(me.key, TINY_PNG)).body.id;
    await readOnQueue(id);
    const doc = await get(me.key, id);
    expect(doc).toMatchObject({ status: 'needs_review', format: 'image', extracted: null, extraction: null, failure_reason: null });
  });
});

describe('idempotent per document', () => {
  it('reads a document once, however often its message comes, one after another or in one batch', async () => {
    const id = await received(cii);
    await readOnQueue(id);
    const first = await get(me.key, id);
    const again = await readOnQueue(id);
    expect(again.explicitAcks).toHaveLength(1);
    expect(await get(me.key, id)).toEqual(first);

    const twice = await received(ubl);
    const body = { document_id: twice };
    const batch = await deliver('workspace-inbound', [{ id: 'a', body }, { id: 'b', body }]);
    expect(batch.explicitAcks.sort()).toEqual(['a', 'b']);
    expect(await processedEvents(me.key, id)).toHaveLength(1);
    expect(await processedEvents(me.key, twice)).toHaveLength(1);
  });

  it('leaves alone a document another delivery is reading, and takes over one whose reader died', async () => {
    const id = await received(cii);
    const heldSince = new Date(Date.now() - 60_000).toISOString();
    await setColumns(id, "status = 'processing', updated_at = ?", heldSince);
    const held = await readOnQueue(id);
    expect(held.explicitAcks).toEqual([]);
    expect(held.retryMessages).toHaveLength(1);
    expect(held.retryMessages[0]!.delaySeconds).toBeGreaterThan(PROCESSING_LEASE_MS / 1000 - 120);
    expect((await get(me.key, id)).status).toBe('processing');

    await setColumns(id, 'updated_at = ?', new Date(Date.now() - PROCESSING_LEASE_MS - 1_000).toISOString());
    await readOnQueue(id);
    expect((await get(me.key, id)).status).toBe('needs_review');
    expect(await processedEvents(me.key, id)).toHaveLength(1);
  });

  it('acks a message about no document of ours, or not about a document at all', async () => {
    const result = await deliver('workspace-inbound', [
      { id: 'unknown', body: { document_id: 'ind_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7' } },
      { id: 'junk', body: { hello: 'world' } },
    ]);
    expect(result.explicitAcks.sort()).toEqual(['junk', 'unknown']);
  });
});

describe('a reading that throws', () => {
  it('gives the claim back and retries with backoff; after the last retry the document fails with a reason', async () => {
    const id = await received(cii);
    vi.spyOn(env.FILES, 'get').mockRejectedValue(new Error('storage is down'));
    const first = await readOnQueue(id, { attempts: 1 });
    expect(first.retryMessages).toEqual([{ msgId: expect.any(String), delaySeconds: 10 }]);
    expect((await get(me.key, id)).status).toBe('received');
    expect((await readOnQueue(id, { attempts: 2 })).retryMessages[0]!.delaySeconds).toBe(20);

    const last = await readOnQueue(id, { attempts: INBOUND_MAX_RETRIES + 1 });
    expect(last.explicitAcks).toHaveLength(1);
    const doc = await get(me.key, id);
    expect(doc).toMatchObject({ status: 'failed', failure_reason: 'The document could not be read after several attempts; upload it again.' });
    expect(JSON.stringify(doc)).not.toContain('storage is down');
    expect(await processedEvents(me.key, id)).toHaveLength(1);
  });

  it('knows the consumer\'s max_retries as wrangler.toml sets it', () => {
    expect(consumerMaxRetries('workspace-inbound')).toEqual([INBOUND_MAX_RETRIES, INBOUND_MAX_RETRIES]);
  });

  it('fails a document whose original is gone, saying so', async () => {
    const id = await received(cii);
    const key = (await env.DB.prepare('SELECT file_key FROM inbound_documents WHERE id = ?').bind(id).first<{ file_key: string }>())!.file_key;
    await env.FILES.delete(key);
    await readOnQueue(id);
    expect(await get(me.key, id)).toMatchObject({ status: 'failed', failure_reason: 'The original file is missing.' });
  });
});
