// Our own EN 16931 rule engine: a CII (CrossIndustryInvoice D16B) or UBL 2.1 (Invoice, CreditNote) document read
// with the safe XML reader, into the semantic model, judged by the business rules of the official artefacts
// (CEN, release 1.3.16). Covered: BR-01…BR-65 (as far as the model carries them), BR-CO-03…26, the VAT category
// rules BR-S/Z/E/AE/IC/G/O-*, BR-DEC-*, and the syntax rules UBL-DT-01, UBL-SR-48, CII-SR-014 and CII-SR-470. Not covered:
// the code lists (BR-CL-*), the IGIC/IPSI/split-payment categories (BR-AF/AG/B-*), the other syntax rules
// (CII-SR/DT, UBL-SR/CR/DT) and the CII XSD: the official validator remains the reference (test/einvoice/ runs
// both where it is installed). Used by the tests and by receiving; not imported by the API's startup path.
import { readXml, XmlReadError, type XmlElement, type XmlLimits, DEFAULT_XML_LIMITS } from '../../../../lib/xml-reader';
import { checkCalculations } from './calculations';
import { checkDecimals } from './decimals';
import { checkMandatory } from './mandatory';
import type { Invoice } from './model';
import { readCii } from './read-cii';
import { readUbl } from './read-ubl';
import { type EInvoiceVerdict, Report } from './report';
import { checkSyntax } from './syntax';
import { checkVatCategories } from './vat-categories';

export type { EInvoiceVerdict, RuleFailure } from './report';
export type { Address as EN16931Address, Invoice as EN16931Invoice } from './model';

const CII_NS = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
const UBL_NS = { Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2' } as const;

/** The document read into the EN 16931 model (and its root element), or the reason it could not be read. */
export function readEInvoice(xml: string, limits: XmlLimits = DEFAULT_XML_LIMITS): { invoice: Invoice; root: XmlElement } | { error: string } {
  let root;
  try {
    root = readXml(xml, limits);
  } catch (error) {
    if (error instanceof XmlReadError) return { error: `not readable as XML: ${error.message}` };
    throw error;
  }
  if (root.local === 'CrossIndustryInvoice' && root.ns === CII_NS) return { invoice: readCii(root), root };
  if ((root.local === 'Invoice' || root.local === 'CreditNote') && root.ns === UBL_NS[root.local]) return { invoice: readUbl(root), root };
  return { error: `the root element <${root.local}> (namespace "${root.ns}") is neither a CII CrossIndustryInvoice nor a UBL Invoice or CreditNote` };
}

/** Every EN 16931 business rule the engine covers, applied to `xml`. */
export function validateEInvoice(xml: string, limits?: XmlLimits): EInvoiceVerdict {
  const read = readEInvoice(xml, limits);
  if ('error' in read) return { valid: false, syntax: null, failures: [{ rule: 'XML', message: read.error }], warnings: [] };
  return judgeEInvoice(read.invoice);
}

/** The rules applied to a document already read (so a reader that needs the model too parses the XML once). */
export function judgeEInvoice(invoice: Invoice): EInvoiceVerdict {
  const report = new Report(invoice);
  checkMandatory(report);
  checkCalculations(report);
  checkVatCategories(report);
  checkDecimals(report);
  checkSyntax(report);
  return { valid: report.failures.length === 0, syntax: invoice.syntax, failures: report.failures, warnings: report.warnings };
}
