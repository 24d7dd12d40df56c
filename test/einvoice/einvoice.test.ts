// §15 e-invoices as pure functions: the readiness check names every field that would make the EN 16931
// validation fail, the writers escape once and leave nothing empty, and the Factur-X PDF carries its XML the
// way PDF/A-3 and Factur-X say. That each fixture passes the official validation is checked in Node by
// test/einvoice/validate.mjs (`npm run test:einvoice`), since it runs Java.
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFStream, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkEInvoice, renderEInvoice } from '../../src/modules/documents/einvoice';
import { renderCii } from '../../src/modules/documents/einvoice/cii';
import { decimalAmount, decimalNumber, type EInvoiceDocument, thousandths, valueOfEInvoice } from '../../src/modules/documents/value';
import { toFacturX } from '../../src/renderer/facturx';
import { toEInvoiceDocument } from '../../src/modules/documents/from-invoice';
import { creditNoteToEInvoiceDocument } from '../../src/modules/documents/from-credit-note';
import { printedDocument } from '../../src/modules/documents/render/printed';
import { pdfDocument } from '../../src/renderer/contract';
import { renderUbl } from '../../src/modules/documents/einvoice/ubl';
import { renderInvoicePdf } from '../../src/renderer/pdf';
import { buildDocument, FIXTURES, issuerDE } from './fixtures';

const paths = (doc: EInvoiceDocument, format: 'cii' | 'ubl') => checkEInvoice(doc, format).map((p) => p.path);
const standard = FIXTURES['standard-discounts']!;

describe('decimals from integers', () => {
  it('writes minor units with the currency exponent, and quantities and rates without trailing zeros', () => {
    expect(decimalAmount(123456, 2)).toBe('1234.56');
    expect(decimalAmount(-5, 2)).toBe('-0.05');
    expect(decimalAmount(7, 2)).toBe('0.07');
    expect(decimalAmount(1000, 0)).toBe('1000');
    expect(decimalAmount(10_000_000_000_000, 2)).toBe('100000000000.00');
    expect(decimalNumber(1.5)).toBe('1.5');
    expect(decimalNumber(0.333)).toBe('0.333');
    expect(decimalNumber(19)).toBe('19');
    expect(decimalNumber(8.25)).toBe('8.25');
    expect(thousandths(1.005)).toBe(1005); // 1.005 * 1000 is 1004.9999999999999 in floating point
  });
});

describe('readiness check', () => {
  it('finds nothing wrong with any fixture, in either syntax', () => {
    for (const [name, doc] of Object.entries(FIXTURES)) {
      expect([name, checkEInvoice(doc, 'cii')]).toEqual([name, []]);
      expect([name, checkEInvoice(doc, 'ubl')]).toEqual([name, []]);
    }
  });

  it('names every missing party field, and the Peppol ones only for UBL', () => {
    const doc: EInvoiceDocument = {
      ...standard,
      buyer_reference: null,
      purchase_order: null,
      issuer: { ...issuerDE, vat_id: null, tax_id: null, registration_id: null, peppol_id: null, address: { ...issuerDE.address, country: null } },
      bill_to: { ...standard.bill_to, peppol_id: null, address: { ...standard.bill_to.address, country: 'XX' } },
    };
    const cii = paths(doc, 'cii');
    expect(cii).toEqual(expect.arrayContaining(['issuer.vat_id', 'issuer.address.country', 'bill_to.address.country']));
    expect(cii).not.toContain('issuer.peppol_id');
    expect(cii).not.toContain('buyer_reference');
    expect(paths(doc, 'ubl')).toEqual(expect.arrayContaining(['issuer.vat_id', 'issuer.address.country', 'bill_to.address.country', 'issuer.peppol_id', 'bill_to.peppol_id', 'buyer_reference']));
    const result = renderEInvoice(doc, 'ubl');
    expect(result.xml).toBeNull();
    expect(result.problems.find((p) => p.path === 'issuer.peppol_id')?.message).toContain('Peppol');
  });

  it('refuses a currency with more than two decimals, a bad unit, a bad Peppol id and a bad VAT prefix', () => {
    const doc = buildDocument({
      currency: 'KWD',
      currency_exponent: 3,
      lines: [{ description: 'Advice', quantity: 1, unit: 'HOURS', unit_amount: 100000, tax_category: 'S', tax_rate: 5 }],
      issuer: { ...issuerDE, vat_id: 'XX123456', peppol_id: '0088:5790000435976' },
      bill_to: { ...FIXTURES['standard-discounts']!.bill_to, peppol_id: 'no-scheme' },
    });
    expect(paths(doc, 'ubl')).toEqual(expect.arrayContaining(['currency', 'lines[0].unit', 'issuer.vat_id', 'issuer.peppol_id', 'bill_to.peppol_id']));
  });

  it('asks each tax category for what EN 16931 asks', () => {
    const reverseCharge = buildDocument({ lines: [{ description: 'Dev', quantity: 1, unit_amount: 1000, tax_category: 'AE', tax_rate: 0 }], bill_to: { ...standard.bill_to, vat_id: null } });
    expect(paths(reverseCharge, 'cii')).toEqual(['bill_to.vat_id']);

    const exempt = buildDocument({ lines: [{ description: 'Course', quantity: 1, unit_amount: 1000, tax_category: 'E', tax_rate: 0 }] });
    expect(paths({ ...exempt, tax_breakdown: exempt.tax_breakdown.map((g) => ({ ...g, exemption_reason: null, exemption_code: null })) }, 'cii')).toEqual(['tax_exemption_reason']);

    const notSubject = buildDocument({ lines: [{ description: 'Art', quantity: 1, unit_amount: 1000, tax_category: 'O', tax_rate: 0 }] });
    expect(paths(notSubject, 'cii')).toEqual(['issuer.vat_id', 'bill_to.vat_id']);

    const mixed = buildDocument({
      lines: [
        { description: 'Art', quantity: 1, unit_amount: 1000, tax_category: 'O', tax_rate: 0 },
        { description: 'Frame', quantity: 1, unit_amount: 1000, tax_category: 'S', tax_rate: 19 },
      ],
      issuer: { ...issuerDE, vat_id: null, tax_id: 'DE-TAX-1' },
      bill_to: { ...standard.bill_to, vat_id: null },
    });
    expect(paths(mixed, 'cii')).toEqual(['lines']);

    const intraCommunity = buildDocument({ lines: [{ description: 'Goods', quantity: 1, unit_amount: 1000, tax_category: 'K', tax_rate: 0 }] });
    expect(paths(intraCommunity, 'cii')).toEqual(['delivery_date']);
    expect(paths({ ...intraCommunity, delivery_date: '2026-11-18' }, 'cii')).toEqual([]);
    expect(renderCii({ ...intraCommunity, delivery_date: '2026-11-18' })).toContain('<ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format="102">20261118</udt:DateTimeString>');
  });

  it('catches figures that do not add up, and a group tax the validator would find too far from rate × base', () => {
    expect(paths({ ...standard, total: standard.total + 1 }, 'cii')).toContain('total');
    expect(paths({ ...standard, amount_due: standard.amount_due - 1 }, 'cii')).toContain('amount_due');
    const group = standard.tax_breakdown[0]!;
    const offByOneEuro = { ...standard, tax: standard.tax + 100, total: standard.total + 100, amount_due: standard.amount_due + 100, tax_breakdown: [{ ...group, tax_amount: group.tax_amount + 100 }] };
    expect(paths(offByOneEuro, 'cii')).toEqual(['tax_breakdown[0].tax_amount']);
    const offBy99Cents = { ...standard, tax: standard.tax + 99, total: standard.total + 99, amount_due: standard.amount_due + 99, tax_breakdown: [{ ...group, tax_amount: group.tax_amount + 99 }] };
    expect(paths(offBy99Cents, 'cii')).toEqual([]);
  });

  it('refuses, for Peppol only, a zero-decimal price × quantity that does not come to a whole amount', () => {
    const doc = buildDocument({ currency: 'JPY', currency_exponent: 0, lines: [{ description: 'Half a page', quantity: 1.5, unit_amount: 333, tax_category: 'S', tax_rate: 10 }] });
    expect(paths(doc, 'cii')).toEqual([]);
    expect(paths(doc, 'ubl')).toEqual(['lines[0].quantity']);
  });
});

describe('the XML', () => {
  it('escapes text once and leaves out what is empty', () => {
    const doc = { ...standard, notes: 'Fish & chips <b>"bold"</b>\u0007 & more' };
    for (const xml of [renderCii(doc), renderUbl(doc)]) {
      expect(xml).toContain('Fish &amp; chips &lt;b&gt;"bold"&lt;/b&gt; &amp; more');
      expect(xml).toContain('Peeters &lt;Bouw&gt; NV');
      expect(xml).not.toContain('&amp;amp;');
      expect(xml).not.toMatch(/<([\w:]+)[^>]*><\/\1>/);
      expect(xml.replace('<ram:ApplicableHeaderTradeDelivery/>', '')).not.toContain('/>');
    }
    // Only the client has a second address line.
    expect(renderCii(doc).match(/<ram:LineTwo>/g)).toEqual(['<ram:LineTwo>']);
  });

  it('states the payment means, the due date and the credited invoice', () => {
    const cii = renderCii(standard);
    expect(cii).toContain('<ram:TypeCode>380</ram:TypeCode>');
    expect(cii).toContain('<ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE89370400440532013000</ram:IBANID>');
    expect(cii).toContain('<ram:DueDateDateTime><udt:DateTimeString format="102">20261220</udt:DateTimeString>');
    expect(cii).toContain('<ram:IncludedNote><ram:Content>Thank you for your business.\nDelivery: November 2026.</ram:Content>');
    const ubl = renderUbl(standard);
    expect(ubl).toContain('<cbc:DueDate>2026-12-20</cbc:DueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>');
    expect(ubl).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID><cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>');
    expect(ubl).toContain('<cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>');

    expect(renderUbl({ ...standard, currency: 'USD' })).toContain('<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>');
    expect(renderUbl({ ...standard, issuer: { ...issuerDE, iban: null } })).not.toContain('PaymentMeans');

    const credit = FIXTURES['credit-note']!;
    expect(renderCii(credit)).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(renderCii(credit)).toContain('<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>INV-2026-0042</ram:IssuerAssignedID>');
    const creditUbl = renderUbl(credit);
    expect(creditUbl).toMatch(/^<\?xml[^>]*>\n<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
    expect(creditUbl).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(creditUbl).toContain('<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>INV-2026-0042</cbc:ID><cbc:IssueDate>2026-11-20</cbc:IssueDate>');
    expect(creditUbl).toContain('<cbc:PaymentDueDate>2026-12-20</cbc:PaymentDueDate>');
    expect(creditUbl).not.toContain('<cbc:DueDate>');
  });

  it('writes JPY without decimals and splits the document discount over the tax groups', () => {
    expect(renderUbl(FIXTURES.jpy!)).toContain(`<cbc:PayableAmount currencyID="JPY">${FIXTURES.jpy!.amount_due}</cbc:PayableAmount>`);
    const twoRates = FIXTURES['two-rates']!;
    const amounts = [...renderCii(twoRates).matchAll(/<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false<\/udt:Indicator><\/ram:ChargeIndicator><ram:ActualAmount>([\d.]+)<\/ram:ActualAmount><ram:ReasonCode>95<\/ram:ReasonCode><ram:Reason>Discount<\/ram:Reason><ram:CategoryTradeTax>/g)].map((m) => m[1]);
    expect(amounts).toHaveLength(2);
    expect(amounts.reduce((sum, a) => sum + Math.round(Number(a) * 100), 0)).toBe(twoRates.discount_total);
  });
});

describe('Factur-X', () => {
  it('embeds the CII as factur-x.xml, with PDF/A-3b metadata and an sRGB output intent', async () => {
    const doc = FIXTURES['standard-discounts']!;
    const cii = renderCii(doc);
    const plain = await renderInvoicePdf(pdfDocument(printedDocument(valueOfEInvoice(doc, 'en-US'))));
    const pdf = await PDFDocument.load(await toFacturX(plain, cii), { updateMetadata: false });
    const catalog = pdf.catalog;

    const af = catalog.lookup(PDFName.of('AF'), PDFArray);
    expect(af.size()).toBe(1);
    const spec = af.lookup(0, PDFDict);
    expect(spec.lookup(PDFName.of('F'), PDFString).decodeText()).toBe('factur-x.xml');
    expect(spec.get(PDFName.of('AFRelationship'))).toBe(PDFName.of('Alternative'));
    const file = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'), PDFStream) as PDFRawStream;
    expect(file.dict.get(PDFName.of('Subtype'))).toBe(PDFName.of('text/xml'));
    expect(new TextDecoder().decode(decodePDFRawStream(file).decode())).toBe(cii);
    const names = catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict).lookup(PDFName.of('Names'), PDFArray);
    expect(names.lookup(0, PDFHexString).decodeText()).toBe('factur-x.xml');

    const metadata = catalog.lookup(PDFName.of('Metadata'), PDFStream) as PDFRawStream;
    expect(metadata.dict.has(PDFName.of('Filter'))).toBe(false);
    const xmp = new TextDecoder().decode(metadata.getContents());
    for (const expected of ['<pdfaid:part>3</pdfaid:part>', '<pdfaid:conformance>B</pdfaid:conformance>', '<fx:DocumentType>INVOICE</fx:DocumentType>', '<fx:Version>1.0</fx:Version>', '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>', '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>', 'Invoice INV-2026-0042']) {
      expect(xmp).toContain(expected);
    }

    const intent = catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
    expect(intent.get(PDFName.of('S'))).toBe(PDFName.of('GTS_PDFA1'));
    expect((intent.lookup(PDFName.of('DestOutputProfile'), PDFStream) as PDFRawStream).dict.get(PDFName.of('N'))?.toString()).toBe('3');
    expect(pdf.context.trailerInfo.ID).toBeDefined();
  });
});

describe('from an invoice as the API shows it', () => {
  const invoice = {
    number: standard.number,
    currency: 'EUR',
    issue_date: standard.issue_date,
    due_date: standard.due_date,
    notes: standard.notes,
    buyer_reference: standard.buyer_reference,
    purchase_order: standard.purchase_order,
    issuer: { name: 'Muster', ...standard.issuer, payment_instructions: standard.payment_instructions },
    bill_to: standard.bill_to,
    line_items: standard.lines,
    discount: { amount: standard.discount_total, reason: standard.discount!.reason },
    subtotal: standard.subtotal,
    discount_total: standard.discount_total,
    tax: standard.tax,
    total: standard.total,
    amount_paid: 6000,
    credited_amount: 4000,
    tax_breakdown: standard.tax_breakdown,
  };

  it('maps a sent invoice with §15 fields to a ready document, credits counted as settled', () => {
    const doc = toEInvoiceDocument(invoice);
    expect(checkEInvoice(doc, 'ubl')).toEqual([]);
    expect(doc).toMatchObject({ type_code: 380, currency_exponent: 2, amount_paid: 10000, amount_due: standard.total - 10000, payment_instructions: standard.payment_instructions });
    // No date of supply stated and no K group: no BT-72 (the page says the issue date stands for it).
    expect(renderCii(doc)).toBe(renderCii({ ...standard, delivery_date: null }));
  });

  it('maps a credit note to a 381 that names its invoice', () => {
    const doc = creditNoteToEInvoiceDocument({ number: 'CN-1', currency: 'EUR', issue_date: '2026-11-25', line_items: standard.lines, subtotal: standard.subtotal, discount_total: standard.discount_total, tax: standard.tax, total: standard.total, tax_breakdown: standard.tax_breakdown, memo: 'Order cancelled' }, invoice);
    expect(checkEInvoice(doc, 'cii')).toEqual([]);
    expect(doc).toMatchObject({ type_code: 381, preceding_invoice: { number: standard.number, issue_date: standard.issue_date }, amount_due: standard.total, notes: 'Order cancelled' });
  });

  it('says what an invoice from before §15 lacks', () => {
    const old = toEInvoiceDocument({
      number: 'INV-1', currency: 'USD', issue_date: '2026-01-05', due_date: '2026-02-04',
      issuer: { name: 'Studio', legal_name: null, email: null, address: { country: 'US' }, tax_id: null },
      bill_to: { name: 'Client', email: null, company: null, address: { country: null }, tax_id: null },
      line_items: [{ id: 'li_1', description: 'Design', quantity: 2, unit_amount: 5000, tax_rate: 8.25, amount: 10000 }],
      subtotal: 10000, tax: 825, total: 10825, amount_paid: 0,
    });
    expect(checkEInvoice(old, 'cii').map((p) => p.path)).toEqual(expect.arrayContaining(['issuer.vat_id', 'bill_to.address.country', 'tax_breakdown']));
  });
});
