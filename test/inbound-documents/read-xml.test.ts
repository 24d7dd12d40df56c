// Reading a received e-invoice's XML (§21 "Processing"): our own exports (the fixtures rendered by the same
// writers the API uses, and one invoice exported through the API by another workspace) in CII and UBL, invoices
// and credit notes, every VAT category, read into `extracted` in minor units, with the profile and our EN 16931
// engine's verdict; what the safe reader refuses answers why.
import { describe, expect, it } from 'vitest';
import { renderCii } from '../../src/modules/documents/einvoice/cii';
import { renderUbl } from '../../src/modules/documents/einvoice/ubl';
import type { EInvoiceDocument } from '../../src/modules/documents/value';
import { profileName } from '../../src/modules/inbound-documents/profiles';
import { readInboundXml } from '../../src/modules/inbound-documents/read-xml';
import { Extracted, type ExtractedValue } from '../../src/modules/inbound-documents/schemas';
import { call } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { fixtureFiles, mutatedFiles } from '../einvoice/corpus';
import { FIXTURES } from '../einvoice/fixtures';

const render = { cii: renderCii, ubl: renderUbl } as const;
const SYNTAXES = ['cii', 'ubl'] as const;

function read(xml: string) {
  const reading = readInboundXml(xml);
  if (!reading.ok) throw new Error(reading.reason);
  return reading;
}

/** What the document says, in the resource's terms: what reading its XML must give back. */
function expectedFrom(doc: EInvoiceDocument) {
  const { issuer } = doc;
  const address = issuer.address;
  return {
    kind: doc.type_code === 381 ? 'credit_note' : 'invoice',
    supplier: {
      name: issuer.legal_name,
      vat_id: issuer.vat_id,
      tax_id: issuer.tax_id && issuer.tax_id !== issuer.vat_id ? issuer.tax_id : null,
      address: [address.line1, address.line2, `${address.postal_code} ${address.city}`, address.region, address.country].filter(Boolean).join(', '),
      iban: issuer.iban?.replace(/\s+/g, '') ?? null,
    },
    number: doc.number,
    issue_date: doc.issue_date,
    currency: doc.currency,
    subtotal: doc.subtotal - doc.discount_total,
    tax: doc.tax,
    total: doc.total,
    tax_breakdown: doc.tax_breakdown.map((g) => ({ category: g.category, rate: g.rate, taxable_amount: g.taxable_amount, tax_amount: g.tax_amount })),
    lines: doc.lines.map((l) => ({ description: l.description, quantity: l.quantity, unit_amount: l.unit_amount, amount: l.amount, tax_rate: l.tax_rate })),
    buyer_reference: doc.buyer_reference,
    purchase_order: doc.purchase_order,
  };
}

describe('readInboundXml on our own exports', () => {
  it.each(Object.keys(FIXTURES).flatMap((name) => SYNTAXES.map((syntax) => [name, syntax] as const)))('reads %s (%s) as the document says, valid by our rules', (name, syntax) => {
    const doc = FIXTURES[name]!;
    const reading = read(render[syntax](doc));
    expect(reading.format).toBe(syntax);
    expect(reading.profile).toBe(syntax === 'cii' ? 'EN 16931' : 'Peppol BIS 3.0');
    expect(reading.validation).toMatchObject({ valid: true, errors: [], warnings: [] });
    expect(reading.extracted).toMatchObject(expectedFrom(doc));
    // A UBL CreditNote has no DueDate of its own: ours states it on the payment means when there is one.
    const dueStated = syntax === 'cii' || doc.type_code === 380 || doc.issuer.iban !== null;
    expect(reading.extracted.due_date).toBe(dueStated ? doc.due_date : null);
    // What the consumer stores is what the resource's schema allows.
    expect(Extracted.safeParse(reading.extracted).error).toBeUndefined();
  });

  it('reads a credit note as kind credit_note with its amounts positive, in both syntaxes alike', () => {
    const [cii, ubl] = SYNTAXES.map((syntax) => read(render[syntax](FIXTURES['credit-note']!)).extracted) as [ExtractedValue, ExtractedValue];
    expect(ubl.kind).toBe('credit_note');
    expect(ubl).toMatchObject({ number: 'CN-0007', subtotal: 45_000, tax: 8_550, total: 53_550 });
    expect(ubl.lines).toEqual([{ description: 'Website redesign (partial credit)', quantity: 1, unit_amount: 50_000, amount: 45_000, tax_rate: 19 }]);
    expect(cii).toEqual(ubl);
  });

  it('reads every VAT category into the tax breakdown, with the rate of each line', () => {
    const categories = new Set<string>();
    for (const { file, xml } of fixtureFiles()) {
      const { extracted } = read(xml);
      for (const group of extracted.tax_breakdown) categories.add(group.category);
      for (const group of extracted.tax_breakdown.filter((g) => g.category !== 'S')) expect(group, file).toMatchObject({ rate: 0, tax_amount: 0 });
    }
    expect([...categories].sort()).toEqual(['AE', 'E', 'G', 'K', 'O', 'S', 'Z']);
    const mixed = read(renderUbl(FIXTURES['every-category-but-o']!)).extracted;
    expect(mixed.tax_breakdown.map((g) => `${g.category} ${g.rate}`)).toEqual(['S 19', 'S 7', 'Z 0', 'E 0']);
    expect(mixed.lines.map((l) => l.tax_rate)).toEqual([19, 7, 0, 0]);
  });

  it('keeps JPY in yen: a currency without minor units reads without decimals', () => {
    const doc = FIXTURES.jpy!;
    const { extracted } = read(renderCii(doc));
    expect(renderCii(doc)).toContain('<ram:ChargeAmount>3300</ram:ChargeAmount>');
    expect(extracted).toMatchObject({ currency: 'JPY', subtotal: doc.subtotal - doc.discount_total, total: doc.total });
    expect(extracted.lines[0]).toMatchObject({ unit_amount: 3300, amount: 39_600 });
  });

  it('reads the same document from CII and from UBL', () => {
    for (const name of ['two-rates', 'standard-discounts', 'intra-community', 'service-period', '100-lines-group-rounding']) {
      const [cii, ubl] = SYNTAXES.map((syntax) => read(render[syntax](FIXTURES[name]!)).extracted);
      expect(ubl, name).toEqual(cii);
    }
  });
});

describe('amounts in minor units', () => {
  const twoRatesCii = renderCii(FIXTURES['two-rates']!);

  it('rounds an amount with more decimals than the currency half away from zero, and warns', () => {
    // A unit price with four decimals is allowed by EN 16931 (no BR-DEC for BT-146): valid, but rounded.
    const xml = twoRatesCii.replace(/(<ram:NetPriceProductTradePrice><ram:ChargeAmount>)1200\.00</, '$11199.995<');
    const reading = read(xml);
    expect(reading.validation.valid).toBe(true);
    expect(reading.extracted.lines[0]!.unit_amount).toBe(120_000);
    expect(reading.validation.warnings).toEqual([{
      rule: 'READ-ROUNDED',
      message: 'Line 1\'s net price (BT-146) is written as 1199.995, more decimals than EUR has (2): read as 1200.00, rounded half away from zero.',
      path: 'BG-25[1]/BT-146',
    }]);
  });

  it('names the BR-DEC rule too when the amount is one EN 16931 limits to two decimals', () => {
    const xml = twoRatesCii.replace(/<ram:LineTotalAmount>2400\.00</, '<ram:LineTotalAmount>2400.005<');
    const reading = read(xml);
    expect(reading.extracted.lines[0]!.amount).toBe(240_001);
    expect(reading.validation.valid).toBe(false);
    expect(reading.validation.errors.map((e) => e.rule)).toContain('BR-DEC-23');
    expect(reading.validation.warnings.map((w) => w.rule)).toEqual(['READ-ROUNDED']);
  });

  it('divides a price stated per a base quantity (BT-149) down to one unit', () => {
    const xml = twoRatesCii.replace(/(<ram:NetPriceProductTradePrice><ram:ChargeAmount>)14\.50<\/ram:ChargeAmount>/, '$11450.00</ram:ChargeAmount><ram:BasisQuantity unitCode="C62">100</ram:BasisQuantity>');
    expect(xml).toContain('<ram:BasisQuantity unitCode="C62">100</ram:BasisQuantity>');
    const reading = read(xml);
    expect(reading.extracted.lines[1]).toMatchObject({ quantity: 12, unit_amount: 1450, amount: 17_400 });
    expect(reading.validation.warnings).toEqual([]);
  });

  it('reads an amount of a million digits as no number, with a warning, and the rules fail what needs it', () => {
    // Turning it into a bigint would take minutes of CPU: a hostile document must cost what its size costs.
    const reading = read(twoRatesCii.replace(/<ram:GrandTotalAmount>[^<]*</, `<ram:GrandTotalAmount>${'9'.repeat(1_000_000)}<`));
    expect(reading.extracted.total).toBeNull();
    expect(reading.validation.warnings).toEqual([{ rule: 'READ-AMOUNT', message: `The total with VAT (BT-112) "${'9'.repeat(40)}" is not a number.`, path: 'BT-112' }]);
    expect(reading.validation.errors.map((e) => e.rule)).toEqual(['BR-CO-15', 'BR-CO-16']);
  });

  it('reads an invoice whose total is negative as a credit, its amounts positive', () => {
    // Every amount negative but the prices (BR-27 keeps those positive), and the quantities with them.
    const ubl = renderUbl(FIXTURES['two-rates']!).replace(/(<cbc:(?!PriceAmount)\w+ currencyID="EUR">)([0-9.]+)</g, '$1-$2<').replace(/(<cbc:InvoicedQuantity [^>]*>)/g, '$1-');
    const { extracted, validation } = read(ubl);
    const expected = expectedFrom(FIXTURES['two-rates']!);
    expect(extracted).toMatchObject({ kind: 'credit_note', subtotal: expected.subtotal, tax: expected.tax, total: expected.total, tax_breakdown: expected.tax_breakdown });
    expect(extracted.lines[0]).toMatchObject({ quantity: 2, amount: 240_000, unit_amount: 120_000 });
    expect(validation.warnings.map((w) => w.rule)).toEqual(['READ-NEGATIVE']);
  });
});

describe('profile (BT-24)', () => {
  it('names the specification a document follows, and shows an unknown one as written', () => {
    expect(profileName('urn:cen.eu:en16931:2017')).toBe('EN 16931');
    expect(profileName('urn:cen.eu:en16931:2017', true)).toBe('Factur-X EN 16931');
    expect(profileName('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0')).toBe('XRechnung 3.0');
    expect(profileName('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0')).toBe('XRechnung 3.0 Extension');
    expect(profileName('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0')).toBe('Peppol BIS 3.0');
    expect(profileName('urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic')).toBe('Factur-X BASIC');
    expect(profileName('urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended')).toBe('Factur-X EXTENDED');
    expect(profileName('urn:factur-x.eu:1p0:basicwl')).toBe('Factur-X BASIC WL');
    expect(profileName('urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended')).toBe('ZUGFeRD 2.0 EXTENDED');
    expect(profileName('urn:example:private-cius:1')).toBe('urn:example:private-cius:1');
    expect(profileName(null)).toBeNull();
  });

  it('reads an XRechnung\'s identifier from the document', () => {
    const xml = renderUbl(FIXTURES['two-rates']!).replace('#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0', '#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(read(xml).profile).toBe('XRechnung 3.0');
  });
});

describe('the verdict of our rules', () => {
  it('reads a broken document all the same, with the rules it fails, their words and where', () => {
    const broken = mutatedFiles().find((f) => f.file === 'mutated-reverse-charge-line-taxed.ubl.xml')!;
    const reading = read(broken.xml);
    expect(reading.extracted.number).toBe('INV-2026-0042');
    expect(reading.validation).toMatchObject({ valid: false, warnings: [] });
    expect(reading.validation.errors).toEqual([{
      rule: 'BR-AE-05',
      message: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Reverse charge" the Invoiced item VAT rate (BT-152) shall be 0 (zero).',
      path: 'BG-25[1]/BT-152',
    }]);
    expect(Date.parse(reading.validation.checked_at)).not.toBeNaN();
  });
});

describe('what the safe reader refuses', () => {
  const ubl = renderUbl(FIXTURES['two-rates']!);

  it('answers why for a DOCTYPE, an entity, a document past the limits and XML that is no e-invoice', () => {
    const cases: [string, RegExp][] = [
      [ubl.replace('<Invoice', '<!DOCTYPE Invoice [<!ENTITY x "xxxxxxxx">]><Invoice'), /DOCTYPE/],
      [ubl.replace('<!DOCTYPE', '').replace('<cbc:Note>', '<cbc:Note>&xxe;'), /entity &xxe; is not one of XML's five/],
      [ubl.replace('<cbc:Note>', `<cbc:Note>${'<a>'.repeat(100)}${'</a>'.repeat(100)}`), /nested deeper than 64/],
      [`<a>${'<b/>'.repeat(200_001)}</a>`, /more than 200000 elements/],
      ['<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>', /neither a CII CrossIndustryInvoice nor a UBL Invoice or CreditNote/],
      ['not xml at all', /not readable as XML/],
    ];
    for (const [xml, reason] of cases) {
      const reading = readInboundXml(xml);
      expect(reading.ok).toBe(false);
      if (!reading.ok) expect(reading.reason).toMatch(reason);
    }
  });
});

describe('an invoice exported by another workspace through the API', () => {
  it('reads its CII and its UBL alike, valid, with the sender as supplier', async () => {
    const sender = await createUser('Sender');
    const issuer = {
      legal_name: 'Ada Studio GmbH', email: 'billing@ada.example', vat_id: 'DE123456789', peppol_id: '9930:DE123456789', iban: 'DE89 3704 0044 0532 0130 00',
      address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
    };
    expect((await call('PATCH', '/api/workspace', { key: sender.key, body: { issuer } })).status).toBe(200);
    const client = await createClient(sender.key, {
      name: 'Receiver SARL', email: 'ap@receiver.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234',
      buyer_reference: 'LEITWEG-04011000-1234512345-06', address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
    });
    const draft = await createInvoice(sender.key, {
      client_id: client.id, currency: 'EUR', purchase_order: 'PO-2026-17', discount: { percent: 10, reason: 'Loyalty' },
      line_items: [
        { description: 'Design work', quantity: 12.5, unit: 'HUR', unit_amount: 9_000, tax_rate: 19 },
        { description: 'Printed brochure', quantity: 3, unit_amount: 1_999, tax_rate: 7 },
      ],
    });
    const sent = await call('POST', `/v1/invoices/${draft.id}/send`, { key: sender.key, body: { email: false } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const invoice = sent.body;

    const readings = await Promise.all(SYNTAXES.map(async (format) => {
      const res = await call('GET', `/v1/invoices/${invoice.id}/e-invoice?format=${format}`, { key: sender.key });
      expect(res.status).toBe(200);
      return read(String(res.body));
    }));
    for (const reading of readings) expect(reading.validation).toMatchObject({ valid: true, errors: [], warnings: [] });
    expect(readings[1]!.extracted).toEqual(readings[0]!.extracted);
    expect(readings[0]!.extracted).toMatchObject({
      kind: 'invoice',
      supplier: { name: 'Ada Studio GmbH', vat_id: 'DE123456789', address: 'Hauptstraße 1, 10115 Berlin, DE', iban: 'DE89370400440532013000' },
      number: invoice.number,
      issue_date: invoice.issue_date,
      due_date: invoice.due_date,
      currency: 'EUR',
      subtotal: invoice.subtotal - invoice.discount_total,
      tax: invoice.tax,
      total: invoice.total,
      tax_breakdown: invoice.tax_breakdown.map((g: { category: string; rate: number; taxable_amount: number; tax_amount: number }) =>
        ({ category: g.category, rate: g.rate, taxable_amount: g.taxable_amount, tax_amount: g.tax_amount })),
      lines: [
        { description: 'Design work', quantity: 12.5, unit_amount: 9_000, amount: 112_500, tax_rate: 19 },
        { description: 'Printed brochure', quantity: 3, unit_amount: 1_999, amount: 5_997, tax_rate: 7 },
      ],
      buyer_reference: 'LEITWEG-04011000-1234512345-06',
      purchase_order: 'PO-2026-17',
    });
  });
});
