// Whether a document can be a valid e-invoice in a syntax, and if not, every reason why. Each problem names
// the field to fix (as the API names it) and, where one applies, the EN 16931 or Peppol rule it would break,
// so nothing the official validation would reject is ever produced: the renderers assume a document that
// passed this check.
import { COUNTRY_CODES, EAS_CODES, UNIT_CODES, VAT_PREFIXES, VATEX_CODES } from './codes';
import {
  buyerName,
  discountParts,
  type EInvoiceDocument,
  type EInvoiceFormat,
  peppolEndpoint,
  sameGroup,
  type TaxCategory,
  thousandths,
} from '../value';

export type EInvoiceProblem = { path: string; message: string };

const CATEGORIES = new Set<TaxCategory>(['S', 'Z', 'E', 'AE', 'K', 'G', 'O']);
/** Categories whose VAT breakdown must give an exemption reason (text or VATEX code). */
const NEEDS_EXEMPTION = new Set<TaxCategory>(['E', 'AE', 'K', 'G', 'O']);
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const blank = (value: string | null | undefined) => !value || value.trim() === '';

export function checkEInvoice(doc: EInvoiceDocument, format: EInvoiceFormat): EInvoiceProblem[] {
  const problems: EInvoiceProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });

  // The document itself.
  if (blank(doc.number)) problem('number', 'The document needs a number (BR-02).');
  if (!DATE.test(doc.issue_date)) problem('issue_date', 'The issue date must be a YYYY-MM-DD date (BR-03).');
  if (doc.due_date !== null && !DATE.test(doc.due_date)) problem('due_date', 'The due date must be a YYYY-MM-DD date.');
  if (!/^[A-Z]{3}$/.test(doc.currency)) problem('currency', 'The currency must be an ISO 4217 code (BR-CL-04).');
  if (doc.currency_exponent > 2) {
    problem('currency', `${doc.currency} amounts have ${doc.currency_exponent} decimals; EN 16931 allows at most 2 (BR-DEC).`);
  }
  if (doc.type_code === 381) {
    if (!doc.preceding_invoice || blank(doc.preceding_invoice.number)) {
      problem('preceding_invoice.number', 'A credit note must name the invoice it credits (BT-25).');
    } else if (doc.preceding_invoice.issue_date !== null && !DATE.test(doc.preceding_invoice.issue_date)) {
      problem('preceding_invoice.issue_date', 'The credited invoice\'s date must be a YYYY-MM-DD date.');
    }
  }
  if (doc.amount_due > 0 && !doc.due_date && blank(doc.payment_instructions)) {
    problem('due_date', 'An amount due needs a due date or payment terms (BR-CO-25).');
  }

  // The parties.
  const { issuer, bill_to: billTo } = doc;
  if (blank(issuer.legal_name)) problem('issuer.legal_name', 'The issuer needs a legal name (BR-06).');
  if (blank(buyerName(doc))) problem('bill_to.name', 'The client needs a name (BR-07).');
  countryProblem(issuer.address.country, 'issuer.address.country', 'The issuer\'s address needs a country (BR-09).', problem);
  countryProblem(billTo.address.country, 'bill_to.address.country', 'The client\'s address needs a country (BR-11).', problem);
  vatIdProblem(issuer.vat_id, 'issuer.vat_id', problem);
  vatIdProblem(billTo.vat_id, 'bill_to.vat_id', problem);
  if (blank(issuer.vat_id) && blank(issuer.registration_id)) {
    problem('issuer.vat_id', 'The issuer needs a VAT id or a registration id, so the client can identify it (BR-CO-26).');
  }
  for (const [party, value] of [['issuer', issuer.peppol_id], ['bill_to', billTo.peppol_id]] as const) {
    const path = `${party}.peppol_id`;
    if (blank(value)) {
      if (format === 'ubl') problem(path, `A Peppol invoice needs the ${party === 'issuer' ? 'issuer\'s' : 'client\'s'} Peppol id ("<scheme>:<id>", e.g. "0088:5790000435975") as its endpoint (PEPPOL-EN16931-R0${party === 'issuer' ? '20' : '10'}).`);
      continue;
    }
    const endpoint = peppolEndpoint(value);
    if (!endpoint) problem(path, 'A Peppol id is "<scheme>:<id>", e.g. "0088:5790000435975".');
    else if (!EAS_CODES.has(endpoint.scheme)) problem(path, `"${endpoint.scheme}" is not an electronic address scheme (BR-CL-25).`);
    else if (endpoint.scheme === '0088' && !validGln(endpoint.id)) problem(path, 'A GLN (scheme 0088) has 13 digits and a valid check digit.');
  }
  if (format === 'ubl' && blank(doc.buyer_reference) && blank(doc.purchase_order)) {
    problem('buyer_reference', 'A Peppol invoice needs a buyer reference or a purchase order number (PEPPOL-EN16931-R003).');
  }

  // The lines.
  if (doc.lines.length === 0) problem('lines', 'The document needs at least one line (BR-16).');
  const categories = new Set<TaxCategory>();
  doc.lines.forEach((line, i) => {
    const at = (field: string) => `lines[${i}].${field}`;
    if (blank(line.id)) problem(at('id'), 'Each line needs an id (BR-21).');
    if (blank(line.description)) problem(at('description'), 'Each line needs a description, its item name (BR-25).');
    if (!UNIT_CODES.has(line.unit)) problem(at('unit'), `"${line.unit}" is not a UN/ECE Recommendation 20 unit code (BR-CL-23).`);
    if (line.unit_amount < 0) problem(at('unit_amount'), 'A price cannot be negative (BR-27).');
    const quantityMilli = milli(line.quantity);
    if (quantityMilli === null || quantityMilli <= 0) problem(at('quantity'), 'The quantity must be above 0 with at most 3 decimals.');
    if (!CATEGORIES.has(line.tax_category)) {
      problem(at('tax_category'), `"${line.tax_category}" is not a VAT category (S, Z, E, AE, K, G, O).`);
      return;
    }
    categories.add(line.tax_category);
    const rate = milli(line.tax_rate);
    if (rate === null || rate < 0 || rate > 100_000) problem(at('tax_rate'), 'The tax rate must be a percentage with at most 3 decimals.');
    else if (line.tax_category === 'S' && rate === 0) problem(at('tax_rate'), 'Standard-rated (S) lines need a rate above 0 (BR-S-05).');
    else if (line.tax_category !== 'S' && rate !== 0) problem(at('tax_rate'), `Lines in category ${line.tax_category} have a rate of 0.`);
    if (quantityMilli !== null) {
      const exact = BigInt(quantityMilli) * BigInt(line.unit_amount); // thousandths of a minor unit
      const gross = Number(divRoundHalfAway(exact, 1000n));
      if (line.amount + line.discount_amount !== gross) {
        problem(at('amount'), 'The line does not add up: amount + discount_amount must be round(quantity × unit_amount).');
      } else if (format === 'ubl' && doc.currency_exponent >= 0) {
        // Peppol checks net = quantity × price − allowances to 0.02 of the currency (PEPPOL-EN16931-R120): only a
        // currency without cents can round further than that.
        const slack = 20n * 10n ** BigInt(doc.currency_exponent); // 0.02 units in thousandths of a minor unit
        if (abs(exact - BigInt(gross) * 1000n) > slack) {
          problem(at('quantity'), `In ${doc.currency}, quantity × price must come to a whole amount for Peppol (PEPPOL-EN16931-R120).`);
        }
      }
    }
    if (line.discount_amount < 0) problem(at('discount_amount'), 'A line discount cannot be negative.');
  });

  // What each tax category asks of the parties.
  const sellerTaxId = !blank(issuer.vat_id) || !blank(issuer.tax_id);
  for (const category of categories) {
    if ((category === 'S' || category === 'Z' || category === 'E') && !sellerTaxId) {
      problem('issuer.vat_id', `Lines in category ${category} need the issuer's VAT id or tax registration (BR-${category}-02).`);
    }
    if ((category === 'AE' || category === 'K' || category === 'G') && blank(issuer.vat_id)) {
      problem('issuer.vat_id', `Lines in category ${category} need the issuer's VAT id (BR-${category === 'K' ? 'IC' : category}-02).`);
    }
    if ((category === 'AE' || category === 'K') && blank(billTo.vat_id)) {
      problem('bill_to.vat_id', `${category === 'AE' ? 'Reverse charge' : 'An intra-community supply'} needs the client's VAT id (BR-${category === 'K' ? 'IC' : category}-02).`);
    }
    if (category === 'K' && (!doc.delivery_date || !DATE.test(doc.delivery_date))) {
      problem('delivery_date', 'An intra-community supply needs the delivery date (BR-IC-11).');
    }
  }
  if (categories.has('O')) {
    if (categories.size > 1) problem('lines', 'Lines not subject to VAT (O) cannot be mixed with other categories (BR-O-11).');
    if (!blank(issuer.vat_id)) problem('issuer.vat_id', 'A document not subject to VAT (O) cannot carry the issuer\'s VAT id (BR-O-02).');
    if (!blank(billTo.vat_id)) problem('bill_to.vat_id', 'A document not subject to VAT (O) cannot carry the client\'s VAT id (BR-O-02).');
  }

  // The tax breakdown: one group per category and rate of the lines, each adding up.
  const parts = discountParts(doc);
  doc.tax_breakdown.forEach((group, i) => {
    const at = (field: string) => `tax_breakdown[${i}].${field}`;
    if (!doc.lines.some((line) => sameGroup(line, group))) problem(at('category'), 'A tax group must have lines in it (BR-CO-18).');
    if (doc.tax_breakdown.findIndex((other) => other.category === group.category && milli(other.rate) === milli(group.rate)) !== i) {
      problem(at('category'), 'Each category and rate has one tax group.');
    }
    if (parts[i]! < 0) problem(at('taxable_amount'), 'A group\'s taxable amount cannot exceed the net of its lines.');
    if (NEEDS_EXEMPTION.has(group.category)) {
      if (blank(group.exemption_reason) && blank(group.exemption_code)) {
        problem('tax_exemption_reason', `Category ${group.category} needs an exemption reason or VATEX code (BR-${group.category === 'K' ? 'IC' : group.category}-10).`);
      }
    } else if (!blank(group.exemption_reason) || !blank(group.exemption_code)) {
      problem(at('exemption_reason'), `Category ${group.category} takes no exemption reason (BR-${group.category}-10).`);
    }
    if (group.exemption_code && !VATEX_CODES.has(group.exemption_code)) problem('tax_exemption_code', `"${group.exemption_code}" is not a VATEX code (BR-CL-22).`);
    if (group.category === 'S') {
      if (!taxWithinTolerance(group.taxable_amount, group.rate, group.tax_amount, doc.currency_exponent)) {
        problem(at('tax_amount'), 'The group\'s tax is 1 or more away from taxable amount × rate (BR-CO-17).');
      }
    } else if (group.tax_amount !== 0) {
      problem(at('tax_amount'), `Category ${group.category} has no tax.`);
    }
  });
  const groupsOfLines = new Set(doc.lines.filter((line) => CATEGORIES.has(line.tax_category)).map((line) => `${line.tax_category}/${milli(line.tax_rate)}`));
  for (const key of groupsOfLines) {
    const [category, rate] = key.split('/');
    if (!doc.tax_breakdown.some((group) => group.category === category && String(milli(group.rate)) === rate)) {
      problem('tax_breakdown', `The lines in category ${category} at ${Number(rate) / 1000} % have no tax group (BR-CO-18).`);
    }
  }

  // The totals (EN 16931 BR-CO-10 to BR-CO-16).
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  if (sum(doc.lines.map((line) => line.amount)) !== doc.subtotal) problem('subtotal', 'The subtotal is not the sum of the line amounts (BR-CO-10).');
  if ((doc.discount?.amount ?? 0) !== doc.discount_total) problem('discount_total', 'The discount total is not the document discount.');
  if (sum(parts) !== doc.discount_total) problem('discount_total', 'The tax groups\' discount shares do not add up to the discount total (BR-CO-11).');
  if (sum(doc.tax_breakdown.map((group) => group.tax_amount)) !== doc.tax) problem('tax', 'The tax is not the sum of the tax groups (BR-CO-14).');
  if (doc.subtotal - doc.discount_total + doc.tax !== doc.total) problem('total', 'The total is not subtotal − discount_total + tax (BR-CO-15).');
  if (doc.total - doc.amount_paid !== doc.amount_due) problem('amount_due', 'The amount due is not total − amount_paid (BR-CO-16).');
  return problems;
}

function countryProblem(country: string | null, path: string, missing: string, problem: (path: string, message: string) => void) {
  if (blank(country)) problem(path, missing);
  else if (!COUNTRY_CODES.has(country!)) problem(path, `"${country}" is not an ISO 3166-1 alpha-2 country code (BR-CL-14).`);
}

function vatIdProblem(vatId: string | null, path: string, problem: (path: string, message: string) => void) {
  if (blank(vatId)) return;
  if (!VAT_PREFIXES.has(vatId!.slice(0, 2))) problem(path, 'A VAT id starts with its country\'s two-letter code (EL for Greece) (BR-CO-09).');
}

/** Thousandths of a number with at most 3 decimals, or null when it has more (or is not finite). */
function milli(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  try {
    return thousandths(value);
  } catch {
    return null;
  }
}

/** GS1 check digit of a 13-digit GLN. */
function validGln(id: string): boolean {
  if (!/^\d{13}$/.test(id)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(id[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(id[12]);
}

const abs = (n: bigint) => (n < 0n ? -n : n);

function divRoundHalfAway(num: bigint, den: bigint): bigint {
  const q = abs(num) / den;
  const r = abs(num) % den;
  const rounded = r * 2n >= den ? q + 1n : q;
  return num < 0n ? -rounded : rounded;
}

/**
 * BR-CO-17 as the validator computes it: the expected tax is |taxable| × rate / 100 rounded to two decimals
 * (XPath round: half up), and the stated tax must lie strictly within 1 unit of the currency of it; a rate
 * that rounds to 0 wants a tax that rounds to 0.
 */
function taxWithinTolerance(taxable: number, rate: number, tax: number, exponent: number): boolean {
  const rateMilli = milli(rate);
  if (rateMilli === null) return false;
  const scale = 10n ** BigInt(exponent);
  const roundHalfUp = (num: bigint, den: bigint) => (num * 2n + den) / (den * 2n); // num ≥ 0
  if (roundHalfUp(BigInt(rateMilli), 1000n) === 0n) return roundHalfUp(abs(BigInt(tax)), scale) === 0n;
  // Expected tax in cents: |taxable| / 10^e × rate_milli / 1000 × 100.
  const expectedCents = roundHalfUp(abs(BigInt(taxable)) * BigInt(rateMilli), scale * 1000n);
  // |tax| / 10^e − 1 < expectedCents / 100 < |tax| / 10^e + 1, times 100 × 10^e.
  const left = abs(BigInt(tax)) * 100n;
  const middle = expectedCents * scale;
  return left - 100n * scale < middle && middle < left + 100n * scale;
}
