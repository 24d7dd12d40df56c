// How the consumer uses the three readers (§21): a PDF's embedded e-invoice is read as XML and the document is
// Factur-X; a PDF without one goes to the model with its text, an image with its bytes; what the model fills in is
// left for review with its confidence and warnings, nothing filled in (the `local` provider) too; a reader that
// cannot read fails the document with its reason. The PDF and model readers are stand-ins here (their own tests
// are theirs), given the Factur-X PDF our own workspace exports.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { consumeInbound } from '../../src/modules/inbound-documents/consumer';
import { inboundMessage } from '../../src/modules/inbound-documents/message';
import { lazyReaders, type Readers } from '../../src/modules/inbound-documents/read-document';
import type { ExtractedValue } from '../../src/modules/inbound-documents/schemas';
import { call } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { TINY_PNG, uploadDocument } from '../helpers/inbound';
import { exportedPdf, exportedXml, sentInvoice, type Supplier, supplierStudio } from './exports';

let supplier: Supplier;
let invoice: Awaited<ReturnType<typeof sentInvoice>>;
let cii: string;
let facturX: Uint8Array;
let me: TestUser;

beforeAll(async () => {
  supplier = await supplierStudio();
  invoice = await sentInvoice(supplier, 2);
  [cii, facturX] = await Promise.all([exportedXml(supplier, invoice.id, 'cii'), exportedPdf(supplier, invoice.id)]);
  me = await createUser('Receiver');
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

const receipt: ExtractedValue = {
  kind: 'invoice', supplier: { name: 'Café Einstein', vat_id: null, tax_id: null, address: 'Kurfürstenstraße 58, Berlin', iban: null },
  number: 'B-4711', issue_date: '2026-11-20', due_date: null, currency: 'EUR', subtotal: 1_000, tax: 190, total: 1_190,
  tax_breakdown: [{ category: 'S', rate: 19, taxable_amount: 1_000, tax_amount: 190 }], lines: [], buyer_reference: null, purchase_order: null,
};

async function readWith(readers: Partial<Readers>, body: Uint8Array, contentType: string) {
  const id = (await uploadDocument(me.key, body, { contentType })).body.id as string;
  const batch = createMessageBatch('workspace-inbound', [{ id: 'm1', timestamp: new Date(), body: inboundMessage(id), attempts: 1 }]);
  await consumeInbound(batch, env, { ...lazyReaders, ...readers });
  expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual(['m1']);
  return (await call('GET', `/v1/inbound-documents/${id}`, { key: me.key })).body;
}

describe('a PDF', () => {
  it('with an embedded e-invoice is read as that XML: format facturx, the supplier\'s invoice, its verdict', async () => {
    const seen: number[] = [];
    const doc = await readWith({
      readInboundPdf: async (_env, bytes) => {
        seen.push(bytes.byteLength);
        return { ok: true, xml: { name: 'factur-x.xml', content: cii }, text: '' };
      },
    }, facturX, 'application/pdf');
    expect(seen).toEqual([facturX.byteLength]);
    expect(doc).toMatchObject({ status: 'needs_review', format: 'facturx', profile: 'urn:cen.eu:en16931:2017', extraction: 'xml', validation: { valid: true } });
    expect(doc.extracted).toMatchObject({ number: invoice.number, total: invoice.total, supplier: { vat_id: 'DE123456789' } });
  });

  it('whose embedded XML is hostile fails, naming the attachment and why', async () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
    const doc = await readWith({ readInboundPdf: async () => ({ ok: true, xml: { name: 'zugferd-invoice.xml', content: xxe }, text: '' }) }, facturX, 'application/pdf');
    expect(doc).toMatchObject({ status: 'failed', format: 'facturx', extracted: null });
    expect(doc.failure_reason).toMatch(/^The embedded zugferd-invoice\.xml: .*DOCTYPE/);
  });

  it('without one goes to the model with its text, and is left for review with the model\'s confidence and warnings', async () => {
    const asked: unknown[] = [];
    const warning = { rule: 'totals', message: 'The lines add up to 10.00, the total says 11.90.', path: 'total' };
    const doc = await readWith({
      readInboundPdf: async () => ({ ok: true, xml: null, text: 'Café Einstein … Summe 11,90 €' }),
      extractWithModel: async (_env, input) => {
        asked.push(input);
        return { ok: true, extracted: receipt, confidence: 0.82, warnings: [warning] };
      },
    }, facturX, 'application/pdf');
    expect(asked).toEqual([{ workspaceId: expect.stringMatching(/^wsp_/), contentType: 'application/pdf', text: 'Café Einstein … Summe 11,90 €' }]);
    expect(doc).toMatchObject({ status: 'needs_review', format: 'pdf', extraction: 'model', confidence: 0.82, extracted: receipt, profile: null });
    expect(doc.validation).toMatchObject({ valid: true, errors: [], warnings: [warning] });
  });

  it('the PDF reader cannot open fails with its reason', async () => {
    const doc = await readWith({ readInboundPdf: async () => ({ ok: false, reason: 'The PDF is encrypted.' }) }, facturX, 'application/pdf');
    expect(doc).toMatchObject({ status: 'failed', format: 'pdf', failure_reason: 'The PDF is encrypted.' });
  });
});

describe('an image', () => {
  it('goes to the model with its bytes', async () => {
    let sent: ArrayBuffer | undefined;
    const doc = await readWith({
      extractWithModel: async (_env, input) => {
        sent = input.bytes;
        return { ok: true, extracted: receipt, confidence: 0.9, warnings: [] };
      },
    }, TINY_PNG, 'image/png');
    expect(new Uint8Array(sent!)).toEqual(TINY_PNG);
    expect(doc).toMatchObject({ status: 'needs_review', format: 'image', extraction: 'model', confidence: 0.9, extracted: { number: 'B-4711' } });
  });

  it('the model fills nothing in (the local provider) is left for a person to fill in', async () => {
    const doc = await readWith({ extractWithModel: async () => ({ ok: true, extracted: null, confidence: null, warnings: [] }) }, TINY_PNG, 'image/png');
    expect(doc).toMatchObject({ status: 'needs_review', format: 'image', extraction: null, extracted: null, validation: null, confidence: null });
  });

  it('the model cannot read fails with its reason', async () => {
    const doc = await readWith({ extractWithModel: async () => ({ ok: false, reason: 'The model answered no JSON.' }) }, TINY_PNG, 'image/png');
    expect(doc).toMatchObject({ status: 'failed', format: 'image', failure_reason: 'The model answered no JSON.' });
  });
});
