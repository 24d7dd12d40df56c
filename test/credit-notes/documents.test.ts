// A credit note's delivery (§17): its PDF (plain, or Factur-X when ready) carries its number and
// the invoice it corrects; its hosted page and PDF at /c/<token>; its email to the client; its
// e-invoice, an EN 16931 credit note (381) naming the invoice (BT-25), in CII and UBL.
import { env } from 'cloudflare:workers';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, expectError, open } from '../helpers/api';
import { createClient, createInvoice, createSentInvoice, createUser } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';

afterEach(() => vi.restoreAllMocks());

const ISSUER = {
  legal_name: 'Ada Studio GmbH',
  email: 'billing@ada.example',
  address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  vat_id: 'DE123456789',
  peppol_id: '9930:DE123456789',
  iban: 'DE89370400440532013000',
};

/** A workspace and a client complete enough for e-invoices, and a sent invoice of two rates with a discount. */
async function readyInvoice() {
  const owner = await createUser('Owner');
  expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer: ISSUER } })).status).toBe(200);
  const client = await createClient(owner.key, {
    name: 'Client SARL', email: 'ap@client.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234',
    buyer_reference: 'PO-77', address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
  });
  const draft = await createInvoice(owner.key, {
    client_id: client.id, currency: 'EUR', discount: { percent: 5, reason: 'Loyalty' },
    line_items: [
      { description: 'Design work', quantity: 10, unit: 'HUR', unit_amount: 10_000, tax_rate: 19 },
      { description: 'Printed brochure', quantity: 3, unit_amount: 1_999, tax_rate: 7 },
    ],
  });
  const invoice = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } })).body;
  return { owner, client, invoice };
}

const creditTwoHours = async (key: string, invoice: any, body: Record<string, unknown> = {}) => {
  const res = await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, {
    key, body: { reason: 'product_unsatisfactory', memo: 'Two hours not delivered', email: false, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 2 }], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const pdfStrings = async (res: Response) => (await pdfText(await res.arrayBuffer())).flat();

describe('a credit note\'s e-invoice', () => {
  it('is a CII and a UBL credit note (381) of its invoice, with the amounts it states', async () => {
    const { owner, invoice } = await readyInvoice();
    const note = await creditTwoHours(owner.key, invoice);
    // 2 × 100.00 at 19 %, 5 % off in proportion: 10.00; tax 38.00 − 1.90 = 36.10; total 226.10.
    expect(note).toMatchObject({ subtotal: 20_000, discount_total: 1_000, tax: 3_610, total: 22_610 });

    const cii = await call('GET', `/v1/credit-notes/${note.id}/e-invoice?format=cii`, { key: owner.key });
    expect(cii.status, String(cii.body)).toBe(200);
    expect(cii.headers.get('Content-Disposition')).toBe(`attachment; filename="${note.number}.cii.xml"`);
    const ciiXml = String(cii.body);
    expect(ciiXml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(ciiXml).toContain(`<ram:ID>${note.number}</ram:ID>`);
    expect(ciiXml).toContain(`<ram:IssuerAssignedID>${invoice.number}</ram:IssuerAssignedID>`);
    expect(ciiXml).toMatch(/<ram:GrandTotalAmount>226\.10<\/ram:GrandTotalAmount>/);

    const ubl = await call('GET', `/api/workflow/credit-notes/${note.id}/e-invoice?format=ubl`, { key: owner.key });
    expect(ubl.status, String(ubl.body)).toBe(200);
    expect(ubl.headers.get('Content-Disposition')).toBe(`attachment; filename="${note.number}.ubl.xml"`);
    const ublXml = String(ubl.body);
    expect(ublXml).toContain('urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2');
    expect(ublXml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(ublXml).toMatch(new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${invoice.number}</cbc:ID>`));
    expect(ublXml).toMatch(/<cbc:PayableAmount currencyID="EUR">226\.10<\/cbc:PayableAmount>/);

    // The invoice's own e-invoice now states what the credit note settled.
    const invoiceXml = String((await call('GET', `/v1/invoices/${invoice.id}/e-invoice?format=cii`, { key: owner.key })).body);
    expect(invoiceXml).toMatch(/<ram:TotalPrepaidAmount>226\.10<\/ram:TotalPrepaidAmount>/);
  });

  it('names what is missing (422 einvoice_incomplete) when the issuer cannot be on an e-invoice', async () => {
    const owner = await createUser();
    const invoice = await createSentInvoice(owner.key);
    const note = (await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key, body: { reason: 'duplicate', email: false } })).body;
    const res = await call('GET', `/v1/credit-notes/${note.id}/e-invoice?format=ubl`, { key: owner.key });
    expectError(res, 422, 'einvoice_incomplete');
  });
});

describe('a credit note\'s PDF and page', () => {
  it('prints its number and the invoice it corrects, as a Factur-X PDF when it is ready, plain otherwise', async () => {
    const { owner, invoice } = await readyInvoice();
    const note = await creditTwoHours(owner.key, invoice);
    const res = await open(`https://workspace.test/v1/credit-notes/${note.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toBe(`inline; filename="${note.number}.pdf"`);
    const bytes = await res.clone().arrayBuffer();
    const strings = await pdfStrings(res);
    expect(strings).toContain(`Credit note ${note.number}`);
    expect(strings).toContain(`Corrects invoice ${invoice.number}`);
    expect(strings).toContain('Two hours not delivered');
    expect(strings.join('\n')).toContain('226.10');
    expect(strings).not.toContain('Amount due');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.catalog.has(PDFName.of('AF'))).toBe(true);
    expect(pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)).toBeDefined();

    // The workspace that wants plain PDFs gets one.
    expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { einvoice_pdf: 'plain' } })).status).toBe(200);
    const plain = await PDFDocument.load(await (await open(`https://workspace.test/v1/credit-notes/${note.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } })).arrayBuffer());
    expect(plain.catalog.has(PDFName.of('AF'))).toBe(false);
  });

  it('has a hosted page and PDF at /c/<token> with no key, and the XML it is ready in; an unknown token is a 404 page', async () => {
    const { owner, invoice } = await readyInvoice();
    const note = await creditTwoHours(owner.key, invoice);
    const page = await open(note.hosted_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('Cache-Control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain(`Credit note ${note.number}`);
    expect(html).toContain(`Corrects invoice ${invoice.number}`);
    expect(html).toContain(`${note.hosted_url}/credit-note.xml?format=cii`);
    expect(html).not.toContain('Amount due');
    const pdf = await open(note.pdf_url);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
    expect(await pdfStrings(pdf)).toContain(`Corrects invoice ${invoice.number}`);
    const xml = await open(`${note.hosted_url}/credit-note.xml?format=ubl`);
    expect(xml.status).toBe(200);
    expect(await xml.text()).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    // The invoice's own page shows what was credited, and what is due after it.
    const invoicePage = await (await open(invoice.hosted_url)).text();
    const { amount_due } = (await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body;
    expect(invoicePage).toMatch(/Credited<\/span><span>-€226\.10/);
    expect(invoicePage).toContain(`€${(amount_due / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    // The invoice's token is not the credit note's, and a made-up one opens nothing.
    expect((await open(`https://workspace.test/c/${invoice.hosted_url.split('/i/')[1]}`)).status).toBe(404);
    expect((await open(`https://workspace.test/c/${'A'.repeat(43)}`)).status).toBe(404);
  });
});

describe('a credit note\'s email', () => {
  it('goes to the client when issued (kind credit_note) with its number and link, and not with email: false', async () => {
    const { owner, invoice } = await readyInvoice();
    const queued: unknown[] = [];
    vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
      for (const m of batch) queued.push(m.body);
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
    });
    const quiet = await creditTwoHours(owner.key, invoice);
    expect(queued).toEqual([]);
    const note = await creditTwoHours(owner.key, invoice, { email: true, memo: null });
    expect(queued).toHaveLength(1);
    const deliveries = (await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data;
    expect(deliveries.map((d: any) => [d.kind, d.to])).toEqual([['credit_note', ['ap@client.example']]]);

    const posted: any[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      posted.push(await new Request(input as RequestInfo, init).json());
      return Response.json({ id: 'msg_1' });
    });
    const httpEnv = { ...env, EMAIL_PROVIDER: 'http', EMAIL_API_URL: 'https://mail.example.com/send', EMAIL_API_KEY: 'mk_test', EMAIL_FROM: 'Ada <billing@ada.example>' };
    const { consumeEmails } = await import('../../src/modules/emails/consumer');
    const messages = queued.map((body, i) => ({ id: `m${i}`, body, attempts: 1, timestamp: new Date(), ack() {}, retry() {} }));
    await consumeEmails({ queue: 'workspace-emails', messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, httpEnv as Env);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ to: ['ap@client.example'], subject: `Credit note ${note.number} from Ada Studio GmbH` });
    expect(posted[0].text).toContain(`Corrects invoice ${invoice.number}`);
    expect(posted[0].html).toContain(note.hosted_url.replace('https://workspace.test', ''));
    expect(posted[0].text).not.toContain(quiet.number);
    expect((await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data[0].status).toBe('sent');
  });
});
