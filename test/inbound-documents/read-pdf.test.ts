// §21 "Processing", a received PDF: a Factur-X/ZUGFeRD/XRechnung PDF gives its embedded XML (by the attachment's
// name), any other PDF its text for the model, and a file that is not a PDF, is encrypted, hides a compression bomb or
// is a hostile 10 MB of objects and nesting answers `ok: false` with a reason, while both workers keep answering.
// Read through the renderer worker, as production does (readInboundPdf → the RENDERER service binding), from real
// inputs: our own Factur-X invoice and quote PDFs as the API serves them, and PDFs built in pdf-files.ts.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/lib/money';
import type { PdfReading } from '../../src/modules/inbound-documents/reading';
import { readInboundPdf } from '../../src/modules/inbound-documents/read-pdf';
import { call, open } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import * as files from './pdf-files';

const ISSUER = {
  legal_name: 'Lieferant Ada GmbH',
  email: 'billing@ada.example',
  address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  vat_id: 'DE123456789',
  peppol_id: '9930:DE123456789',
  iban: 'DE89370400440532013000',
};

/** A second workspace, the supplier: its issuer complete, and a client in France, so its sent invoices are Factur-X. */
async function supplier() {
  const owner = await createUser('Supplier');
  expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer: ISSUER } })).status).toBe(200);
  const client = await createClient(owner.key, {
    name: 'Client SARL', email: 'ap@client.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234',
    buyer_reference: 'PO-77', address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
  });
  return { owner, client };
}

async function sentInvoice(key: string, clientId: string) {
  const lines = [
    { description: 'Design work', quantity: 10, unit: 'HUR', unit_amount: 10_000, tax_rate: 19 },
    { description: 'Hosting', quantity: 1, unit: 'MON', unit_amount: 5_000, tax_rate: 19 },
  ];
  const draft = await call('POST', '/v1/invoices', { key, body: { client_id: clientId, currency: 'EUR', line_items: lines } });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const sent = await call('POST', `/v1/invoices/${draft.body.id}/send`, { key, body: { email: false } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body as { id: string; number: string; total: number };
}

/** A PDF as the API serves it to its owner. */
async function pdfFrom(key: string, path: string): Promise<ArrayBuffer> {
  const res = await open(`https://workspace.test${path}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toBe('application/pdf');
  return res.arrayBuffer();
}

const read = async (bytes: Uint8Array | ArrayBuffer | Promise<Uint8Array>): Promise<PdfReading> => {
  const view = await bytes;
  return readInboundPdf(env, view instanceof ArrayBuffer ? view : (view.slice().buffer as ArrayBuffer));
};

function expectRead(reading: PdfReading): asserts reading is Extract<PdfReading, { ok: true }> {
  expect(reading.ok, JSON.stringify(reading).slice(0, 300)).toBe(true);
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('a PDF that carries an e-invoice gives its XML', () => {
  it('our own Factur-X invoice: the very CII the API exports for it, under its attachment name', async () => {
    const { owner, client } = await supplier();
    const invoice = await sentInvoice(owner.key, client.id);
    const pdf = await pdfFrom(owner.key, `/v1/invoices/${invoice.id}/pdf`);
    const cii = await call('GET', `/v1/invoices/${invoice.id}/e-invoice?format=cii`, { key: owner.key });
    expect(cii.status).toBe(200);

    const reading = await readInboundPdf(env, pdf);
    expectRead(reading);
    expect(reading.xml?.name).toBe('factur-x.xml');
    expect(reading.xml?.content).toBe(cii.body);
    expect(reading.xml?.content).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
    // The XML is the invoice: its text is not read (the model never sees a hybrid PDF).
    expect(reading.text).toBe('');
  });

  it('under the other names (ZUGFeRD 1 and 2, XRechnung), in either case, from the name tree or from /AF alone', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><rsm:CrossIndustryInvoice>Müller</rsm:CrossIndustryInvoice>';
    for (const [name, where] of [['zugferd-invoice.xml', 'names'], ['ZUGFeRD-invoice.xml', 'af'], ['xrechnung.xml', 'both'], ['Factur-X.xml', 'af']] as const) {
      const pdf = files.attach(await files.plainInvoicePdf(['Rechnung 17']), name, encode(`\uFEFF${xml}`), { where });
      const reading = await read(pdf.save());
      expectRead(reading);
      expect({ name, xml: reading.xml }).toEqual({ name, xml: { name, content: xml } });
    }
  });

  it('an attachment by another name is not an e-invoice: the PDF gives its text', async () => {
    const pdf = files.attach(await files.plainInvoicePdf(['Rechnung 18', 'Summe 10,00 €']), 'order.xml', encode('<order/>'));
    const reading = await read(pdf.save());
    expectRead(reading);
    expect(reading.xml).toBeNull();
    expect(reading.text).toBe('Rechnung 18\nSumme 10,00 €');
  });
});

describe('a PDF without an e-invoice gives its text, for the model', () => {
  it("our own quote's PDF (an embedded font, text by its ToUnicode map): number, parties, lines and total", async () => {
    const { owner, client } = await supplier();
    const lines = [{ description: 'Gestaltung der Startseite', quantity: 10, unit_amount: 10_000, tax_rate: 19 }, { description: 'Hosting März', quantity: 1, unit_amount: 5_000, tax_rate: 19 }];
    const quote = await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: lines } });
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    const sent = await call('POST', `/v1/quotes/${quote.body.id}/send`, { key: owner.key });
    expect(sent.status).toBe(200);

    const reading = await read(await pdfFrom(owner.key, `/v1/quotes/${quote.body.id}/pdf`));
    expectRead(reading);
    expect(reading.xml).toBeNull();
    for (const text of [sent.body.number, 'Lieferant Ada GmbH', 'Hauptstraße 1', 'DE123456789', 'Client SARL', 'Gestaltung der Startseite', 'Hosting März', formatMoney(sent.body.total, 'EUR', 'en-US')]) {
      expect(reading.text).toContain(text);
    }
    // The cells of one row stay on one line (in the order they were drawn).
    expect(reading.text.split('\n').find((line) => line.includes('Gestaltung der Startseite'))).toContain('€1,000.00');
  });

  it('a PDF in a standard font (WinAnsiEncoding): accents and the euro sign read as printed, one line per line', async () => {
    const reading = await read((await files.plainInvoicePdf(['Rechnung Nr. 2026-17', 'Müller & Söhne GmbH, Größe: 3½', 'Summe: 1.234,56 € – fällig'])).save());
    expectRead(reading);
    expect(reading).toEqual({ ok: true, xml: null, text: 'Rechnung Nr. 2026-17\nMüller & Söhne GmbH, Größe: 3½\nSumme: 1.234,56 € – fällig' });
  });

  it('passes over an inline image (binary, with an EI inside) and stray delimiters', async () => {
    expect(await read(files.inlineImageAndNoise())).toEqual({ ok: true, xml: null, text: 'Before the image\nAfter it' });
  });

  it('a form XObject drawn a thousand times, and inside itself, gives its text once; 2 MB of drawing give none', async () => {
    expect(await read(files.formDrawnOverAndOver())).toEqual({ ok: true, xml: null, text: 'Letterhead GmbH' });
    expect(await read(files.drawingWithoutText(2 * 1024 * 1024))).toEqual({ ok: true, xml: null, text: '' });
  });

  it('stops reading content after 8 MB: a thousand pages sharing one 1 MB content stream of drawing give what they had', async () => {
    expect(await read(files.sharedContentOnManyPages(1024 * 1024))).toEqual({ ok: true, xml: null, text: '' });
  });

  it('keeps to the first 50,000 characters of a long document', async () => {
    const line = 'Position 0000: consulting, 1 h at 100.00 EUR '.padEnd(90, '.');
    const pdf = await files.plainInvoicePdf([]);
    const font = await pdf.embedFont('Helvetica');
    for (let p = 0; p < 40; p++) {
      const page = pdf.addPage([595, 842]);
      for (let i = 0; i < 40; i++) page.drawText(line.replace('0000', String(p * 40 + i).padStart(4, '0')), { x: 20, y: 800 - i * 19, size: 7, font });
    }
    const reading = await read(pdf.save());
    expectRead(reading);
    expect(reading.text.length).toBeLessThanOrEqual(50_000);
    expect(reading.text.length).toBeGreaterThan(49_000);
    expect(reading.text.startsWith('Position 0000')).toBe(true);
    expect(reading.text).not.toContain('Position 1599');
  });
});

describe('a file it cannot or must not read answers ok: false with a reason', () => {
  it('not a PDF: an HTML page, an empty file', async () => {
    expect(await read(encode('<!doctype html><title>Invoice</title>%PDF-1.7 is only mentioned here'.padStart(1200, ' ')))).toEqual({ ok: false, reason: 'The file is not a PDF: it has no PDF header.' });
    expect(await read(new Uint8Array())).toEqual({ ok: false, reason: 'The file is not a PDF: it has no PDF header.' });
  });

  it('encrypted', async () => {
    const pdf = files.markEncrypted(files.attach(await files.plainInvoicePdf(['Secret']), 'factur-x.xml', encode('<x/>')));
    expect(await read(pdf.save())).toEqual({ ok: false, reason: 'The PDF is encrypted: it can be read once it is sent without a password or restrictions.' });
  });

  it('a compression bomb (1 MB inflating to 1 GB) in a page, in the factur-x.xml, in an object stream; many streams just under the ceiling', async () => {
    const oneGigabyte = 4_000_000; // copies of 258 bytes
    const bomb = { ok: false, reason: 'A compressed stream in the PDF inflates to more than 10 MB.' };
    expect(await read(files.bombInPage(oneGigabyte))).toEqual(bomb);
    expect(await read(files.bombAsAttachment(oneGigabyte))).toEqual(bomb);
    expect(await read(files.bombInObjectStream(oneGigabyte))).toEqual(bomb);
    // Two object streams of 9.4 MB each: each under 10 MB, together past the reading's 16 MB.
    expect(await read(files.bombsInObjectStreams(2, 38_000))).toEqual({ ok: false, reason: "The PDF's compressed streams inflate to more than 16 MB together." });
  });

  it('an e-invoice stored uncompressed, larger than 10 MB', async () => {
    const xml = encode(`<Invoice>${'x'.repeat(10 * 1024 * 1024)}</Invoice>`);
    const pdf = files.attach(await files.plainInvoicePdf(['Rechnung']), 'xrechnung.xml', xml, { stored: true });
    expect(await read(pdf.save())).toEqual({ ok: false, reason: "The PDF's xrechnung.xml is larger than 10 MB." });
  });

  it('10 MB of hostile structure: 58,000 objects nested 60 deep before one nested 100,000 deep; 400,000 tiny objects', async () => {
    const nested = files.deeplyNestedObjects();
    expect(nested.length).toBeGreaterThan(10_000_000);
    expect(await read(nested)).toEqual({ ok: false, reason: 'The PDF nests arrays and dictionaries more than 64 levels deep.' });
    const many = files.manyObjects();
    expect(many.length).toBeGreaterThan(10_000_000);
    expect(await read(many)).toEqual({ ok: false, reason: 'The PDF has more than 100,000 objects.' });
  });

  it('work that grows with the reading, not the file: strings that never end, a font too large to keep read again for each use', async () => {
    const tooComplex = { ok: false, reason: 'The PDF is too complex to read: its structure takes more work than any invoice needs.' };
    expect(await read(files.unterminatedStrings())).toEqual(tooComplex);
    expect(await read(files.fontReadAgainAndAgain())).toEqual(tooComplex);
  });

  it('larger than any inbound document may be, without asking the renderer', async () => {
    expect(await readInboundPdf(env, new ArrayBuffer(25 * 1024 * 1024 + 1))).toEqual({ ok: false, reason: 'The PDF is larger than 25 MB.' });
  });
});

describe('both workers keep answering', () => {
  it('while and after hostile files are read: the API answers, the renderer makes a PDF and reads one', async () => {
    const { owner, client } = await supplier();
    const invoice = await sentInvoice(owner.key, client.id);
    const [nested, bomb, health, pdf] = await Promise.all([
      read(files.deeplyNestedObjects()),
      read(files.bombInPage(4_000_000)),
      call('GET', '/health'),
      pdfFrom(owner.key, `/v1/invoices/${invoice.id}/pdf`),
    ]);
    expect([nested.ok, bomb.ok, health.status]).toEqual([false, false, 200]);
    const again = await readInboundPdf(env, pdf);
    expectRead(again);
    expect(again.xml?.content).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
  });
});
