// E-invoices through the API (§15): the CII and UBL exports of a sent invoice, the readiness check of any
// invoice, the Factur-X PDF of a ready one (plain when the workspace says so), and the XML on the hosted page.
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { call, expectError, open } from '../helpers/api';
import { addMember, createClient, createInvoice, createUser } from '../helpers/factories';

const ISSUER = {
  legal_name: 'Ada Studio GmbH',
  email: 'billing@ada.example',
  address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  vat_id: 'DE123456789',
  peppol_id: '9930:DE123456789',
  iban: 'DE89370400440532013000',
};

/** A workspace whose issuer is complete, and a client in France with a VAT id: a ready e-invoice once sent. */
async function readyStudio() {
  const owner = await createUser('Owner');
  const settings = await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer: ISSUER } });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const client = await createClient(owner.key, {
    name: 'Client SARL', email: 'ap@client.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234',
    buyer_reference: 'PO-77', address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
  });
  return { owner, client };
}

async function sentInvoice(key: string, clientId: string) {
  const draft = await createInvoice(key, { client_id: clientId, currency: 'EUR', line_items: [{ description: 'Design work', quantity: 10, unit: 'HUR', unit_amount: 10_000, tax_rate: 19 }] });
  const sent = await call('POST', `/v1/invoices/${draft.id}/send`, { key, body: { email: false } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body;
}

/** The names of the files a PDF embeds, and whether its catalog lists them in /AF. */
async function embeddedFiles(bytes: ArrayBuffer) {
  const pdf = await PDFDocument.load(bytes);
  const names = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const files = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const entries = files?.lookupMaybe(PDFName.of('Names'), PDFArray)?.asArray() ?? [];
  const list = entries.filter((e) => e instanceof PDFHexString || e instanceof PDFString).map((e) => (e as PDFString).decodeText()).join(',');
  return { list, af: pdf.catalog.has(PDFName.of('AF')), metadata: pdf.catalog.has(PDFName.of('Metadata')) };
}

describe('GET …/invoices/{id}/e-invoice', () => {
  it('exports a sent invoice as CII and as UBL, as an attachment named by its number', async () => {
    const { owner, client } = await readyStudio();
    const invoice = await sentInvoice(owner.key, client.id);

    const cii = await call('GET', `/v1/invoices/${invoice.id}/e-invoice?format=cii`, { key: owner.key });
    expect(cii.status, String(cii.body)).toBe(200);
    expect(cii.headers.get('Content-Type')).toContain('application/xml');
    expect(cii.headers.get('Content-Disposition')).toBe(`attachment; filename="${invoice.number}.cii.xml"`);
    const ciiXml = String(cii.body);
    expect(ciiXml).toContain('rsm:CrossIndustryInvoice');
    expect(ciiXml).toContain('urn:cen.eu:en16931:2017');
    expect(ciiXml).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
    expect(ciiXml).toContain('DE123456789');
    expect(ciiXml).toContain('FR12345678901');
    expect(ciiXml).toContain('DE89370400440532013000');
    expect(ciiXml).toContain('<ram:TypeCode>380</ram:TypeCode>');
    expect(ciiXml).toMatch(/<ram:GrandTotalAmount>1190\.00<\/ram:GrandTotalAmount>/);

    const ubl = await call('GET', `/api/workflow/invoices/${invoice.id}/e-invoice?format=ubl`, { key: owner.key });
    expect(ubl.status, String(ubl.body)).toBe(200);
    expect(ubl.headers.get('Content-Disposition')).toBe(`attachment; filename="${invoice.number}.ubl.xml"`);
    const ublXml = String(ubl.body);
    expect(ublXml).toContain('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
    expect(ublXml).toContain('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    expect(ublXml).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
    expect(ublXml).toContain('<cbc:BuyerReference>PO-77</cbc:BuyerReference>');
    expect(ublXml).toMatch(/<cbc:PayableAmount currencyID="EUR">1190\.00<\/cbc:PayableAmount>/);

    // CII is the default format.
    const byDefault = await call('GET', `/v1/invoices/${invoice.id}/e-invoice`, { key: owner.key });
    expect(String(byDefault.body)).toContain('rsm:CrossIndustryInvoice');
  });

  it('answers 409 for a draft and 422 einvoice_incomplete naming every missing field', async () => {
    const owner = await createUser('Owner');
    const client = await createClient(owner.key, { name: 'Bare Ltd', currency: 'EUR' });
    const draft = await createInvoice(owner.key, { client_id: client.id, currency: 'EUR' });
    expectError(await call('GET', `/v1/invoices/${draft.id}/e-invoice?format=cii`, { key: owner.key }), 409, 'invalid_state');

    const sent = await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } });
    expect(sent.status).toBe(200);
    const res = await call('GET', `/v1/invoices/${draft.id}/e-invoice?format=ubl`, { key: owner.key });
    expectError(res, 422, 'einvoice_incomplete');
    const paths = (res.body.error.details as { path: string }[]).map((d) => d.path);
    for (const path of ['issuer.vat_id', 'issuer.address.country', 'bill_to.address.country', 'issuer.peppol_id', 'bill_to.peppol_id']) expect(paths).toContain(path);

    expectError(await call('GET', `/v1/invoices/${draft.id}/e-invoice?format=pdf`, { key: owner.key }), 422, 'validation_failed');
  });

  it('lets a viewer read it, and hides another workspace\'s invoice', async () => {
    const { owner, client } = await readyStudio();
    const invoice = await sentInvoice(owner.key, client.id);
    const viewer = await addMember(owner.key, 'viewer');
    expect((await call('GET', `/v1/invoices/${invoice.id}/e-invoice`, { key: viewer.key })).status).toBe(200);
    expect((await call('GET', `/v1/invoices/${invoice.id}/e-invoice/check`, { key: viewer.key })).status).toBe(200);
    const stranger = await createUser('Stranger');
    expectError(await call('GET', `/v1/invoices/${invoice.id}/e-invoice`, { key: stranger.key }), 404, 'not_found');
    expectError(await call('GET', `/v1/invoices/${invoice.id}/e-invoice/check`, { key: stranger.key }), 404, 'not_found');
    expectError(await call('GET', `/v1/invoices/${invoice.id}/e-invoice`, {}), 401, 'unauthorized');
  });
});

describe('tax groups in the XML', () => {
  it('names the invoice\'s exemption code on its exempt group only; a reverse-charge group keeps its own reason', async () => {
    const { owner, client } = await readyStudio();
    const draft = await createInvoice(owner.key, {
      client_id: client.id, currency: 'EUR', tax_exemption_reason: 'Exempt medical service', tax_exemption_code: 'VATEX-EU-132',
      line_items: [
        { description: 'Medical report', quantity: 1, unit_amount: 50_000, tax_category: 'E', tax_rate: 0 },
        { description: 'Design work', quantity: 1, unit_amount: 20_000, tax_category: 'AE', tax_rate: 0 },
      ],
    });
    const sent = await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const ubl = await call('GET', `/v1/invoices/${draft.id}/e-invoice?format=ubl`, { key: owner.key });
    expect(ubl.status, String(ubl.body).slice(0, 400)).toBe(200);
    const subtotals = [...String(ubl.body).matchAll(/<cac:TaxSubtotal>([\s\S]*?)<\/cac:TaxSubtotal>/g)].map((m) => m[1]!);
    const group = (id: string) => subtotals.find((x) => x.includes(`<cbc:ID>${id}</cbc:ID>`))!;
    expect(group('E')).toContain('VATEX-EU-132');
    expect(group('AE')).not.toContain('VATEX-EU-132');
    expect(group('AE')).toContain('Reverse charge');
  });
});

describe('GET …/invoices/{id}/e-invoice/check', () => {
  it('checks a draft against the workspace and client as they are now', async () => {
    const owner = await createUser('Owner');
    const client = await createClient(owner.key, { name: 'Bare Ltd', currency: 'EUR' });
    const draft = await createInvoice(owner.key, { client_id: client.id, currency: 'EUR', line_items: [{ description: 'Work', quantity: 1, unit_amount: 100, tax_rate: 19 }] });
    const before = await call('GET', `/v1/invoices/${draft.id}/e-invoice/check?format=cii`, { key: owner.key });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ format: 'cii', ready: false });
    expect(before.body.problems.map((p: { path: string }) => p.path)).toEqual(expect.arrayContaining(['issuer.vat_id', 'bill_to.address.country']));

    await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer: ISSUER } });
    await call('PATCH', `/api/workflow/clients/${client.id}`, { key: owner.key, body: { vat_id: 'FR12345678901', address: { city: 'Paris', country: 'FR' } } });
    const after = await call('GET', `/v1/invoices/${draft.id}/e-invoice/check?format=cii`, { key: owner.key });
    expect(after.body).toEqual({ format: 'cii', ready: true, problems: [], warnings: [] });
    // UBL also wants the client's Peppol id and a buyer reference.
    const ubl = await call('GET', `/v1/invoices/${draft.id}/e-invoice/check?format=ubl`, { key: owner.key });
    expect(ubl.body.ready).toBe(false);
    expect(ubl.body.problems.map((p: { path: string }) => p.path)).toEqual(expect.arrayContaining(['bill_to.peppol_id', 'buyer_reference']));
  });
});

describe('Factur-X', () => {
  it('makes the PDF of a ready sent invoice a PDF/A-3 carrying factur-x.xml, on the API and the hosted link', async () => {
    const { owner, client } = await readyStudio();
    const invoice = await sentInvoice(owner.key, client.id);
    const viaKey = await open(`https://workspace.test/v1/invoices/${invoice.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(viaKey.status).toBe(200);
    expect(await embeddedFiles(await viaKey.arrayBuffer())).toMatchObject({ af: true, metadata: true, list: expect.stringContaining('factur-x.xml') });
    const hosted = await open(invoice.pdf_url);
    expect(hosted.status).toBe(200);
    const bytes = await hosted.arrayBuffer();
    expect((await embeddedFiles(bytes)).list).toContain('factur-x.xml');
    expect(new TextDecoder('latin1').decode(bytes)).toContain('<pdfaid:part>3</pdfaid:part>');
  });

  it('keeps the plain PDF for drafts, for invoices not ready, and when the workspace chooses plain', async () => {
    const { owner, client } = await readyStudio();
    const draft = await createInvoice(owner.key, { client_id: client.id, currency: 'EUR' });
    const draftPdf = await open(`https://workspace.test/v1/invoices/${draft.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(await embeddedFiles(await draftPdf.arrayBuffer())).toMatchObject({ af: false, list: '' });

    const settings = await call('PATCH', '/api/workspace', { key: owner.key, body: { einvoice_pdf: 'plain' } });
    expect(settings.body.einvoice_pdf).toBe('plain');
    expect((await call('GET', '/api/workspace', { key: owner.key })).body.einvoice_pdf).toBe('plain');
    const invoice = await sentInvoice(owner.key, client.id);
    expect(await embeddedFiles(await (await open(invoice.pdf_url)).arrayBuffer())).toMatchObject({ af: false, list: '' });

    const bare = await createUser('Bare');
    expect((await call('GET', '/api/workspace', { key: bare.key })).body.einvoice_pdf).toBe('facturx');
    const bareClient = await createClient(bare.key, { name: 'Bare Ltd' });
    const notReady = await sentInvoice(bare.key, bareClient.id);
    expect(await embeddedFiles(await (await open(notReady.pdf_url)).arrayBuffer())).toMatchObject({ af: false, list: '' });
  });
});

describe('the hosted page', () => {
  it('links the XML beside the PDF when ready, and serves it under the token', async () => {
    const { owner, client } = await readyStudio();
    const invoice = await sentInvoice(owner.key, client.id);
    const page = await (await open(invoice.hosted_url)).text();
    expect(page).toContain(`${invoice.hosted_url}/invoice.xml?format=cii`);
    expect(page).toContain(`${invoice.hosted_url}/invoice.xml?format=ubl`);

    const xml = await open(`${invoice.hosted_url}/invoice.xml?format=ubl`);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('Content-Disposition')).toBe(`attachment; filename="${invoice.number}.ubl.xml"`);
    expect(await xml.text()).toContain('<cbc:CustomizationID>');
    expect((await open(`${invoice.hosted_url}/invoice.xml`)).status).toBe(200);
    expect((await open(`${new URL(invoice.hosted_url).origin}/i/notatoken/invoice.xml?format=cii`)).status).toBe(404);

    const bare = await createUser('Bare');
    const bareClient = await createClient(bare.key, { name: 'Bare Ltd' });
    const notReady = await sentInvoice(bare.key, bareClient.id);
    expect(await (await open(notReady.hosted_url)).text()).not.toContain('invoice.xml');
    expect((await open(`${notReady.hosted_url}/invoice.xml?format=cii`)).status).toBe(422);
  });
});
