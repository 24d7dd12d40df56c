// Uploading a document (§21): the file as the raw body or as a form's `file`, its type read from its bytes
// (415 for anything else, whatever it claims), 413 past 10 MB, Idempotency-Key honoured, the original kept
// unchanged and answered by …/file as an attachment no browser renders; the list, the record and its event.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError, open } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { bytesOf, TINY_PNG, uploadDocument } from '../helpers/inbound';
import { exportedPdf, exportedXml, sentInvoice, type Supplier, supplierStudio } from './exports';

const sha256 = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);
const WEBP = bytesOf('RIFF\u001a\u0000\u0000\u0000WEBPVP8L\u000d\u0000\u0000\u0000/\u0000\u0000\u0000\u0010\u0007\u0010\u0011\u0011\u0088\u0088\u00fe\u0007\u0000');

let supplier: Supplier;
let cii: string;
let ubl: string;
let facturX: Uint8Array;
let queued: unknown[];

beforeAll(async () => {
  supplier = await supplierStudio();
  const invoice = await sentInvoice(supplier);
  [cii, ubl, facturX] = await Promise.all([exportedXml(supplier, invoice.id, 'cii'), exportedXml(supplier, invoice.id, 'ubl'), exportedPdf(supplier, invoice.id)]);
});

beforeEach(() => {
  queued = [];
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockImplementation(async (body) => void queued.push(body) as never);
});

const fileOf = async (key: string, id: string) => open(`https://workspace.test/v1/inbound-documents/${id}/file`, { headers: { Authorization: `Bearer ${key}` } });

async function listed(key: string) {
  return (await call('GET', '/v1/inbound-documents?limit=100', { key })).body.data as { id: string }[];
}

describe('POST /v1/inbound-documents', () => {
  let me: TestUser;
  beforeAll(async () => {
    me = await createUser('Receiver');
  });

  it('takes an exported CII as the raw body: 202, received, queued, its event, and the same record on every read', async () => {
    const res = await uploadDocument(me.key, cii, { filename: 'INV-000001.cii.xml', contentType: 'application/xml' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const doc = res.body;
    expect(doc).toMatchObject({
      source: 'upload', status: 'received', filename: 'INV-000001.cii.xml', content_type: 'application/xml', size: bytesOf(cii).length,
      sha256: await sha256(bytesOf(cii)), format: null, validation: null, extracted: null, duplicate_of: null, expense_id: null, from: null,
    });
    expect(doc.id).toMatch(/^ind_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(res.headers.get('Location')).toBe(`/v1/inbound-documents/${doc.id}`);
    expect(queued).toEqual([{ document_id: doc.id }]);
    expect((await call('GET', `/v1/inbound-documents/${doc.id}`, { key: me.key })).body).toEqual(doc);
    expect((await listed(me.key)).map((d) => d.id)).toContain(doc.id);
    const [event] = (await call('GET', '/api/events?type=inbound_document.received&limit=1', { key: me.key })).body.data;
    expect(event.data.object).toEqual(doc);
  });

  it('takes a UBL sent as text/xml, and the Factur-X PDF as the `file` of a form, named by the part', async () => {
    const asText = await uploadDocument(me.key, ubl, { contentType: 'text/xml; charset=utf-8' });
    expect(asText.status).toBe(202);
    expect(asText.body).toMatchObject({ content_type: 'application/xml', filename: 'document.xml' });

    const form = new FormData();
    form.append('file', new File([facturX], 'C:\\fakepath\\Rechnung März.pdf', { type: 'application/pdf' }));
    const res = await call('POST', '/v1/inbound-documents', { key: me.key, body: form });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ content_type: 'application/pdf', filename: 'Rechnung März.pdf', size: facturX.length, sha256: await sha256(facturX) });
  });

  it('reads the type from the bytes, not from the Content-Type: images whatever they claim', async () => {
    for (const [bytes, type] of [[TINY_PNG, 'image/png'], [JPEG, 'image/jpeg'], [WEBP, 'image/webp']] as const) {
      const res = await uploadDocument(me.key, bytes, { contentType: 'application/pdf' });
      expect(res.status, type).toBe(202);
      expect(res.body.content_type).toBe(type);
      expect(res.body.filename).toBe(`document.${type === 'image/jpeg' ? 'jpg' : type.split('/')[1]}`);
    }
  });

  it('refuses with 415 what is none of the types, and keeps nothing of it', async () => {
    const user = await createUser();
    const refused: [string, Uint8Array | string, string][] = [
      ['an HTML page that calls itself a PDF', '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>', 'application/pdf'],
      ['an HTML page without a DOCTYPE', '\n  <html><head><title>Invoice</title></head></html>', 'application/xml'],
      ['an XHTML page', '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', 'application/xml'],
      ['an SVG image', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'image/png'],
      ['JSON', '{"invoice": 1}', 'application/json'],
      ['plain text', 'Invoice 42: 100.00 EUR', 'text/plain'],
      ['a GIF', 'GIF89a\u0001\u0000\u0001\u0000', 'image/gif'],
      ['a PDF header not at the start', ' %PDF-1.7', 'application/pdf'],
      ['nothing', new Uint8Array(), 'application/pdf'],
    ];
    for (const [what, body, contentType] of refused) {
      const res = await uploadDocument(user.key, body, { contentType });
      expect(res.status, what).toBe(415);
      expectError(res, 415, 'unsupported_media_type');
    }
    expect(await listed(user.key)).toEqual([]);
    expect(queued).toEqual([]);
    expect((await env.FILES.list({ prefix: 'inbound/' })).objects.filter((o) => o.key.includes(user.id.replace('usr_', '')))).toEqual([]);
  });

  it('takes 10 MB and refuses a byte more with 413, raw or in a form, by its length or its bytes', async () => {
    const user = await createUser();
    const pdf = (size: number) => {
      const bytes = new Uint8Array(size).fill(0x20);
      bytes.set(bytesOf('%PDF-1.7\n'));
      return bytes;
    };
    const largest = await uploadDocument(user.key, pdf(10 * 1024 * 1024), { contentType: 'application/pdf' });
    expect(largest.status).toBe(202);
    expect(largest.body.size).toBe(10 * 1024 * 1024);

    expectError(await uploadDocument(user.key, pdf(10 * 1024 * 1024 + 1), { contentType: 'application/pdf' }), 413, 'payload_too_large');
    const form = new FormData();
    form.append('file', new File([pdf(10 * 1024 * 1024 + 1)], 'big.pdf'));
    expectError(await call('POST', '/v1/inbound-documents', { key: user.key, body: form }), 413, 'payload_too_large');
    // A declared length past the limit is refused before a byte is read.
    const declared = await call('POST', '/v1/inbound-documents', { key: user.key, body: bytesOf('%PDF-1.7'), headers: { 'Content-Type': 'application/pdf', 'Content-Length': String(50 * 1024 * 1024) } });
    expectError(declared, 413, 'payload_too_large');
    expect((await listed(user.key)).length).toBe(1);
  });

  it('refuses a form without exactly one `file`, or with other fields, naming them', async () => {
    const noFile = new FormData();
    noFile.append('document', new File([TINY_PNG], 'a.png'));
    const res = await call('POST', '/v1/inbound-documents', { key: me.key, body: noFile });
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['document']);

    const two = new FormData();
    two.append('file', new File([TINY_PNG], 'a.png'));
    two.append('file', new File([TINY_PNG], 'b.png'));
    expect((await call('POST', '/v1/inbound-documents', { key: me.key, body: two })).body.error.details[0].path).toBe('file');

    const text = new FormData();
    text.append('file', 'not a file');
    expectError(await call('POST', '/v1/inbound-documents', { key: me.key, body: text }), 422, 'validation_failed');
  });

  it('refuses a filename with control characters (422), and keeps one with quotes and accents as sent', async () => {
    const bad = await uploadDocument(me.key, TINY_PNG, { filename: 'receipt\u0007.png' });
    expectError(bad, 422, 'validation_failed');
    expect(bad.body.error.details[0].path).toBe('filename');
    const named = await uploadDocument(me.key, TINY_PNG, { filename: 'Quittung "Café" #2.png' });
    expect(named.status).toBe(202);
    expect(named.body.filename).toBe('Quittung "Café" #2.png');
  });
});

describe('Idempotency-Key on an upload', () => {
  it('replays the first answer for the same file, and refuses another file under the same key', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': `upload-${crypto.randomUUID()}` };
    const first = await uploadDocument(user.key, cii, { filename: 'a.xml', contentType: 'application/xml', headers });
    expect(first.status).toBe(202);
    const again = await uploadDocument(user.key, cii, { filename: 'a.xml', contentType: 'text/xml', headers });
    expect(again.status).toBe(202);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(queued).toHaveLength(1);
    expect(await listed(user.key)).toHaveLength(1);

    expectError(await uploadDocument(user.key, ubl, { filename: 'a.xml', headers }), 422, 'idempotency_key_reused');
    expectError(await uploadDocument(user.key, cii, { filename: 'b.xml', headers }), 422, 'idempotency_key_reused');
    // The same file in a form, under its own name: the same request.
    const form = new FormData();
    form.append('file', new File([cii], 'a.xml'));
    const asForm = await call('POST', '/v1/inbound-documents', { key: user.key, body: form, headers });
    expect(asForm.headers.get('Idempotent-Replayed')).toBe('true');
    expect(asForm.body.id).toBe(first.body.id);
  });

  it('does not store a refused upload: the corrected retry with the same key goes through', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': `upload-${crypto.randomUUID()}` };
    expectError(await uploadDocument(user.key, '<html></html>', { headers }), 415, 'unsupported_media_type');
    const retry = await uploadDocument(user.key, TINY_PNG, { headers });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
  });
});

describe('GET /v1/inbound-documents/{id}/file', () => {
  it('answers the original unchanged, as an attachment a browser neither sniffs nor renders', async () => {
    const user = await createUser();
    const pdf = await uploadDocument(user.key, facturX, { filename: 'Rechnung "März".pdf', contentType: 'application/pdf' });
    const res = await fileOf(user.key, pdf.body.id);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(facturX);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="Rechnung _M_rz_.pdf"; filename*=UTF-8\'\'Rechnung%20%22M%C3%A4rz%22.pdf');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Content-Security-Policy')).toBe('sandbox');
    expect(res.headers.get('Cache-Control')).toBe('no-store');

    const xml = await uploadDocument(user.key, cii, { contentType: 'text/html' });
    const file = await fileOf(user.key, xml.body.id);
    expect(file.headers.get('Content-Type')).toBe('application/xml');
    expect(await file.text()).toBe(cii);
    // Through call(): the answer is what the document declares.
    expect((await call('GET', `/v1/inbound-documents/${xml.body.id}/file`, { key: user.key })).status).toBe(200);
  });
});

describe('GET /v1/inbound-documents', () => {
  it('lists newest first in pages, filtered by status and source', async () => {
    const user = await createUser();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await uploadDocument(user.key, TINY_PNG, { filename: `r${i}.png` })).body.id);
    const first = await call('GET', '/v1/inbound-documents?limit=2', { key: user.key });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.has_more).toBe(true);
    const second = await call('GET', `/v1/inbound-documents?limit=2&cursor=${first.body.next_cursor}`, { key: user.key });
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);

    expect((await call('GET', '/v1/inbound-documents?status=received', { key: user.key })).body.data).toHaveLength(3);
    expect((await call('GET', '/v1/inbound-documents?status=needs_review', { key: user.key })).body.data).toEqual([]);
    expect((await call('GET', '/v1/inbound-documents?source=upload', { key: user.key })).body.data).toHaveLength(3);
    expect((await call('GET', '/v1/inbound-documents?source=email', { key: user.key })).body.data).toEqual([]);
    expectError(await call('GET', '/v1/inbound-documents?status=lost', { key: user.key }), 422, 'validation_failed');
    expectError(await call('GET', '/v1/inbound-documents?cursor=nope', { key: user.key }), 422, 'validation_failed');
  });
});
