// Every e-invoice the API answers in the tests is held to our EN 16931 rules (src/modules/documents/einvoice/
// rules/) as it passes through call() and open(): the CII and UBL exports of invoices and credit notes, the hosted
// page's invoice.xml, and the CII a Factur-X PDF embeds. So no test can receive a document that breaks a rule
// without failing, whatever it was testing. (npm run test:einvoice holds the same files to the official
// validator where it is installed.)
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import { expect } from 'vitest';
import { validateEInvoice } from '../../src/modules/documents/einvoice/rules';

const EINVOICE_ROOT = /<(?:[\w-]+:)?(?:CrossIndustryInvoice|Invoice|CreditNote)[\s>]/;
/** The names a Factur-X / ZUGFeRD / XRechnung PDF gives its XML (§21). */
const EMBEDDED_NAMES = new Set(['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml']);

/** Asserts that an answer carrying an e-invoice (as XML, or embedded in a PDF) passes our rules. */
export async function expectEInvoicesValid(where: string, status: number, contentType: string | null, bytes: ArrayBuffer): Promise<void> {
  if (status !== 200 || !contentType) return;
  if (/[/+]xml\b/.test(contentType)) {
    const xml = new TextDecoder().decode(bytes);
    if (EINVOICE_ROOT.test(xml)) expectValid(`${where} (XML)`, xml);
  } else if (contentType.includes('application/pdf')) {
    // A Factur-X PDF names its attachment in its XMP metadata, which is never compressed: only those are opened.
    if (!new TextDecoder('latin1').decode(bytes).includes('factur-x.xml')) return;
    for (const [name, xml] of await embeddedXml(bytes)) expectValid(`${where} (${name} in the PDF)`, xml);
  }
}

function expectValid(where: string, xml: string): void {
  const verdict = validateEInvoice(xml);
  expect(verdict.failures, `${where} breaks our EN 16931 rules`).toEqual([]);
}

/** The XML files a PDF embeds under one of the e-invoice names, by name. */
async function embeddedXml(bytes: ArrayBuffer): Promise<[string, string][]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const tree = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const entries = tree?.lookupMaybe(PDFName.of('Names'), PDFArray)?.asArray() ?? [];
  const found: [string, string][] = [];
  for (let i = 0; i + 1 < entries.length; i += 2) {
    const key = entries[i];
    const name = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : '';
    if (!EMBEDDED_NAMES.has(name)) continue;
    const spec = pdf.context.lookup(entries[i + 1], PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) throw new Error(`${name}: its embedded file is not a stream`);
    found.push([name, new TextDecoder().decode(decodePDFRawStream(stream).decode())]);
  }
  expect(found.length, 'a Factur-X PDF embeds its XML').toBeGreaterThan(0);
  return found;
}
