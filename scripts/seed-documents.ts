// The received documents of `npm run dev`'s demo workspace (scripts/seed-local.mjs runs this with tsx and writes
// what it prints to local storage): an XRechnung from the print shop that made the demo's print proofs, written
// by our own CII export (renderCii, the file any workspace here exports) with XRechnung 3.0 as its specification
// and a Leitweg-ID as its buyer reference; and the photo of a café receipt, a small PNG drawn here. Prints JSON:
// `{ xrechnung, read, receipt }`: the XML as text, what reading it gives, and the PNG as base64.
import { deflateSync } from 'node:zlib';
import { CII_GUIDELINE, renderCii } from '../src/modules/documents/einvoice/cii.ts';
import { duplicateKeys } from '../src/modules/inbound-documents/duplicates.ts';
import { readInboundXml } from '../src/modules/inbound-documents/read-xml.ts';
import { buildDocument } from '../test/einvoice/fixtures.ts';

const XRECHNUNG_3 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
const [issueDate, number] = [process.argv[2] ?? new Date().toISOString().slice(0, 10), process.argv[3] ?? 'RE-2026-0815'];
const due = new Date(Date.parse(`${issueDate}T00:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10);

const document = buildDocument({
  number,
  issue_date: issueDate,
  due_date: due,
  buyer_reference: '04011000-12345-67',
  purchase_order: null,
  notes: 'Proofs for the Brand refresh, as agreed.',
  payment_instructions: 'Bank transfer within 14 days, quoting the invoice number.',
  issuer: {
    legal_name: 'Druckerei Stern GmbH', vat_id: 'DE298765431', registration_id: 'HRB 98765 B', peppol_id: null, tax_id: null,
    email: 'rechnung@druckerei-stern.example',
    address: { line1: 'Oranienstraße 12', line2: null, city: 'Berlin', region: null, postal_code: '10999', country: 'DE' },
    iban: 'DE02120300000000202051', bic: 'BYLADEM1001',
  },
  bill_to: {
    name: 'Demo Studio GmbH', company: 'Demo Studio GmbH', email: 'billing@demo-studio.example', vat_id: 'DE123456789', peppol_id: null,
    address: { line1: 'Torstraße 1', line2: null, city: 'Berlin', region: null, postal_code: '10119', country: 'DE' },
  },
  lines: [
    { description: 'Colour proofs, A2, matte', quantity: 4, unit_amount: 1_850, tax_category: 'S', tax_rate: 19 },
    { description: 'Paper samples, set', quantity: 1, unit_amount: 1_500, tax_category: 'S', tax_rate: 19 },
  ],
});
const xrechnung = renderCii(document).replace(`<ram:ID>${CII_GUIDELINE}</ram:ID>`, `<ram:ID>${XRECHNUNG_3}</ram:ID>`);
if (!xrechnung.includes(XRECHNUNG_3)) throw new Error('the CII export no longer writes its guideline as expected');

/** A 120×200 receipt: a white slip with grey lines of "text" and a darker total line, as a phone photo would crop it. */
function receiptPng(): Buffer {
  const [width, height] = [120, 200];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xff);
    row[0] = 0; // no filter
    const line = Math.floor((y - 16) / 12);
    const inText = y >= 16 && (y - 16) % 12 < 5 && line < 12;
    const total = line === 10;
    for (let x = 0; x < width; x++) {
      const margin = x < 12 || x >= width - 12 || (!total && x >= 30 + ((line * 37) % 50) && x < 70);
      const shade = inText && !margin ? (total ? 0x30 : 0x90) : y < 4 || y >= height - 4 ? 0xe8 : 0xfb;
      row.fill(shade, 1 + x * 3, 4 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// The XRechnung as the inbound queue reads it, so the demo shows it read and checked.
const reading = readInboundXml(xrechnung);
if (!reading.ok) throw new Error(`the seeded XRechnung does not read: ${reading.reason}`);
const read = { format: reading.format, profile: reading.profile, extracted: reading.extracted, validation: reading.validation, ...duplicateKeys(reading.extracted) };

process.stdout.write(JSON.stringify({ xrechnung, read, receipt: receiptPng().toString('base64'), total: document.total, subtotal: document.subtotal, tax: document.tax }));
