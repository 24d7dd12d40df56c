// E-invoice documents for the tests, their amounts computed by the rules of contract §15 (line gross and
// discount, the document discount split over the tax groups by largest remainder, tax per line or per group),
// so every fixture adds up the way a real invoice does. Pure: used by the Workers tests and the Node check.
import type { EInvoiceDocument, EInvoiceLine, EInvoiceTaxGroup, TaxCategory } from '../../src/modules/documents/value';
import { thousandths } from '../../src/modules/documents/value';

type LineSpec = { description: string; quantity: number; unit?: string; unit_amount: number; discount_percent?: number; tax_category: TaxCategory; tax_rate: number };

type Spec = {
  lines: LineSpec[];
  discount?: { amount: number; reason?: string } | null;
  rounding?: 'line' | 'group';
  exemption?: { reason?: string; code?: string };
  amount_paid?: number;
} & Partial<Omit<EInvoiceDocument, 'lines' | 'discount' | 'tax_breakdown' | 'subtotal' | 'discount_total' | 'tax' | 'total' | 'amount_paid' | 'amount_due'>>;

const roundDiv = (num: bigint, den: bigint) => {
  const negative = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (n * 2n + d) / (d * 2n);
  return Number(negative ? -q : q);
};
/** round(amount × rate / 100), half away from zero, rate with at most 3 decimals. */
const taxOf = (amount: number, rate: number) => roundDiv(BigInt(amount) * BigInt(thousandths(rate)), 100_000n);

export const issuerDE: EInvoiceDocument['issuer'] = {
  legal_name: 'Muster & Söhne GmbH',
  vat_id: 'DE123456789',
  registration_id: 'HRB 12345',
  peppol_id: '9930:DE123456789',
  tax_id: null,
  email: 'billing@muster.example',
  address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', region: null, postal_code: '10115', country: 'DE' },
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
};

export const buyerBE: EInvoiceDocument['bill_to'] = {
  name: 'Jan Peeters',
  company: 'Peeters <Bouw> NV',
  email: 'ap@peeters.example',
  vat_id: 'BE0123456749',
  peppol_id: '0208:0123456749',
  address: { line1: 'Kerkstraat 5', line2: 'Bus 2', city: 'Gent', region: 'Oost-Vlaanderen', postal_code: '9000', country: 'BE' },
};

/** A complete document from its lines, computed as the tax engine does. */
export function buildDocument(spec: Spec): EInvoiceDocument {
  const { lines: specs, discount = null, rounding = 'line', exemption, amount_paid = 0, ...rest } = spec;
  const exponent = rest.currency_exponent ?? 2;
  const lines: (EInvoiceLine & { tax: number })[] = specs.map((line, i) => {
    const gross = roundDiv(BigInt(thousandths(line.quantity)) * BigInt(line.unit_amount), 1000n);
    const discountAmount = roundDiv(BigInt(gross) * BigInt(thousandths(line.discount_percent ?? 0)), 100_000n);
    const amount = gross - discountAmount;
    return {
      id: String(i + 1),
      description: line.description,
      quantity: line.quantity,
      unit: line.unit ?? 'C62',
      unit_amount: line.unit_amount,
      discount_percent: line.discount_percent ?? 0,
      discount_amount: discountAmount,
      amount,
      tax_category: line.tax_category,
      tax_rate: line.tax_rate,
      tax: taxOf(amount, line.tax_rate),
    };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const discountTotal = discount?.amount ?? 0;

  // Tax groups in the order of their first line.
  const groups: { category: TaxCategory; rate: number; net: number; lineTax: number }[] = [];
  for (const line of lines) {
    let group = groups.find((g) => g.category === line.tax_category && g.rate === line.tax_rate);
    if (!group) groups.push((group = { category: line.tax_category, rate: line.tax_rate, net: 0, lineTax: 0 }));
    group.net += line.amount;
    group.lineTax += line.tax;
  }
  // The discount over the groups in proportion to their nets, largest remainder first (ties: earlier group).
  const shares = groups.map((g) => (subtotal === 0 ? 0n : BigInt(discountTotal) * BigInt(g.net)));
  const parts = shares.map((share) => (subtotal === 0 ? 0 : Number(share / BigInt(subtotal))));
  let left = discountTotal - parts.reduce((a, b) => a + b, 0);
  const order = groups.map((_, i) => i).sort((a, b) => {
    const ra = shares[a]! % BigInt(subtotal || 1);
    const rb = shares[b]! % BigInt(subtotal || 1);
    return ra === rb ? a - b : rb > ra ? 1 : -1;
  });
  for (const i of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  const breakdown: EInvoiceTaxGroup[] = groups.map((g, i) => {
    const part = parts[i] ?? 0;
    const taxable = g.net - part;
    const tax = rounding === 'group' ? taxOf(taxable, g.rate) : g.lineTax - taxOf(part, g.rate);
    const defaults: Partial<Record<TaxCategory, string>> = { AE: 'Reverse charge', K: 'Intra-community supply', G: 'Export outside the EU', O: 'Not subject to VAT' };
    const exempt = g.category !== 'S' && g.category !== 'Z';
    return {
      category: g.category,
      rate: g.rate,
      taxable_amount: taxable,
      tax_amount: tax,
      exemption_reason: exempt ? (exemption?.reason ?? defaults[g.category] ?? null) : null,
      exemption_code: exempt ? (exemption?.code ?? null) : null,
    };
  });
  const tax = breakdown.reduce((sum, g) => sum + g.tax_amount, 0);
  const total = subtotal - discountTotal + tax;
  return {
    type_code: 380,
    number: 'INV-2026-0042',
    issue_date: '2026-11-20',
    due_date: '2026-12-20',
    preceding_invoice: null,
    currency: 'EUR',
    currency_exponent: exponent,
    buyer_reference: 'PO-REF-7',
    purchase_order: '4500012345',
    notes: 'Thank you for your business.\nDelivery: November 2026.',
    issuer: issuerDE,
    bill_to: buyerBE,
    payment_instructions: 'Bank transfer within 30 days, quoting the invoice number.',
    ...rest,
    lines: lines.map(({ tax: _tax, ...line }) => line),
    discount: discount ? { amount: discount.amount, reason: discount.reason ?? null } : null,
    subtotal,
    discount_total: discountTotal,
    tax,
    total,
    amount_paid,
    amount_due: total - amount_paid,
    tax_breakdown: breakdown,
  };
}

const hundredLines = Array.from({ length: 100 }, (_, i): LineSpec => ({
  description: `Consulting block ${i + 1}: architecture review & "follow-up" <notes>`,
  quantity: [1, 1.5, 2.25, 0.333, 7][i % 5]!,
  unit: ['HUR', 'DAY', 'C62', 'HUR', 'KGM'][i % 5]!,
  unit_amount: 1999 + i * 37,
  discount_percent: i % 7 === 0 ? 12.5 : 0,
  tax_category: 'S',
  tax_rate: i % 3 === 0 ? 7 : 19,
}));

export const buyerUS: EInvoiceDocument['bill_to'] = {
  name: 'Dana Whitfield',
  company: 'Whitfield Labs Inc.',
  email: 'ap@whitfield.example',
  vat_id: null,
  peppol_id: '0060:123456789',
  address: { line1: '500 Market Street', line2: 'Suite 12', city: 'San Francisco', region: 'CA', postal_code: '94105', country: 'US' },
};

export const buyerFR: EInvoiceDocument['bill_to'] = {
  name: 'Claire Martin',
  company: 'Atelier Martin SARL',
  email: 'compta@martin.example',
  vat_id: 'FR12345678901',
  peppol_id: '0009:12345678901234',
  address: { line1: '12 rue des Lilas', line2: null, city: 'Lyon', region: null, postal_code: '69003', country: 'FR' },
};

/** The cases §15 names, each a document that must pass the EN 16931 validation in both syntaxes. */
export const FIXTURES: Record<string, EInvoiceDocument> = {
  'standard-discounts': buildDocument({
    lines: [
      { description: 'Website redesign', quantity: 1, unit_amount: 250000, discount_percent: 10, tax_category: 'S', tax_rate: 19 },
      { description: 'Hosting, monthly', quantity: 3, unit: 'MON', unit_amount: 2999, tax_category: 'S', tax_rate: 19 },
    ],
    discount: { amount: 5000, reason: 'Loyal customer' },
    amount_paid: 10000,
  }),
  'two-rates': buildDocument({
    lines: [
      { description: 'Workshop', quantity: 2, unit: 'DAY', unit_amount: 120000, tax_category: 'S', tax_rate: 19 },
      { description: 'Printed handbook', quantity: 12, unit_amount: 1450, tax_category: 'S', tax_rate: 7 },
      { description: 'Travel time', quantity: 3.5, unit: 'HUR', unit_amount: 4500, discount_percent: 50, tax_category: 'S', tax_rate: 19 },
    ],
    discount: { amount: 3333 },
  }),
  'reverse-charge': buildDocument({
    lines: [{ description: 'Software development', quantity: 40, unit: 'HUR', unit_amount: 9500, tax_category: 'AE', tax_rate: 0 }],
    exemption: { code: 'VATEX-EU-AE' },
  }),
  'exempt': buildDocument({
    lines: [{ description: 'Medical training course', quantity: 1, unit_amount: 80000, tax_category: 'E', tax_rate: 0 }],
    issuer: { ...issuerDE, tax_id: '27/123/45678' }, // a tax number beside the VAT id (BT-32)
    exemption: { reason: 'Exempt under Art. 132(1)(i) of Directive 2006/112/EC', code: 'VATEX-EU-132-1I' },
  }),
  'not-subject': buildDocument({
    lines: [{ description: 'Illustration, small business', quantity: 1, unit_amount: 45000, tax_category: 'O', tax_rate: 0 }],
    issuer: { ...issuerDE, vat_id: null, tax_id: null, registration_id: 'HRB 98765' },
    bill_to: { ...buyerBE, vat_id: null },
  }),
  'jpy': buildDocument({
    currency: 'JPY',
    currency_exponent: 0,
    lines: [
      { description: 'Translation, per page', quantity: 12, unit_amount: 3300, tax_category: 'S', tax_rate: 10 },
      { description: 'Rush fee', quantity: 1, unit_amount: 5000, discount_percent: 15, tax_category: 'S', tax_rate: 10 },
    ],
    discount: { amount: 777 },
    issuer: { ...issuerDE, iban: null, bic: null },
  }),
  '100-lines-line-rounding': buildDocument({ lines: hundredLines, discount: { amount: 12345, reason: 'Framework agreement' }, rounding: 'line' }),
  '100-lines-group-rounding': buildDocument({ lines: hundredLines, discount: { amount: 12345, reason: 'Framework agreement' }, rounding: 'group' }),
  'credit-note': buildDocument({
    type_code: 381,
    number: 'CN-0007',
    preceding_invoice: { number: 'INV-2026-0042', issue_date: '2026-11-20' },
    lines: [{ description: 'Website redesign (partial credit)', quantity: 1, unit_amount: 50000, discount_percent: 10, tax_category: 'S', tax_rate: 19 }],
    notes: 'Credit for the cancelled second phase.',
  }),
  // Every VAT category in a document of its own, and together where EN 16931 allows it (all but O mix).
  'zero-rated-and-standard': buildDocument({
    lines: [
      { description: 'Printed books', quantity: 40, unit_amount: 1250, tax_category: 'Z', tax_rate: 0 },
      { description: 'Editing', quantity: 6, unit: 'HUR', unit_amount: 8000, discount_percent: 5, tax_category: 'S', tax_rate: 19 },
      { description: 'Shipping', quantity: 1, unit_amount: 1490, tax_category: 'S', tax_rate: 7 },
    ],
    discount: { amount: 1000, reason: 'Early order' },
  }),
  'intra-community': buildDocument({
    number: 'INV-2026-0101',
    lines: [
      { description: 'Laser-cut steel brackets', quantity: 250, unit_amount: 420, tax_category: 'K', tax_rate: 0 },
      { description: 'Packaging', quantity: 3, unit: 'XPK', unit_amount: 1500, tax_category: 'K', tax_rate: 0 },
    ],
    delivery_date: '2026-11-18',
    bill_to: buyerFR,
    exemption: { code: 'VATEX-EU-IC' },
  }),
  'export-outside-eu': buildDocument({
    number: 'INV-2026-0102',
    currency: 'USD',
    lines: [{ description: 'Industrial sensor kit', quantity: 5, unit_amount: 64900, tax_category: 'G', tax_rate: 0 }],
    bill_to: buyerUS,
    issuer: { ...issuerDE, iban: null, bic: null },
    payment_instructions: 'Wire transfer within 45 days.',
    exemption: { code: 'VATEX-EU-G' },
  }),
  'every-category-but-o': buildDocument({
    number: 'INV-2026-0103',
    lines: [
      { description: 'Consulting', quantity: 10, unit: 'HUR', unit_amount: 11000, tax_category: 'S', tax_rate: 19 },
      { description: 'Reference book', quantity: 2, unit_amount: 3900, tax_category: 'S', tax_rate: 7 },
      { description: 'Exported spare parts', quantity: 1, unit_amount: 25000, tax_category: 'Z', tax_rate: 0 },
      { description: 'Training course (exempt)', quantity: 1, unit_amount: 60000, tax_category: 'E', tax_rate: 0 },
    ],
    discount: { amount: 2500, reason: 'Framework agreement' },
    exemption: { reason: 'Exempt under Art. 132(1)(i) of Directive 2006/112/EC' },
  }),
  'service-period': buildDocument({
    number: 'INV-2026-0104',
    lines: [
      { description: 'Retainer, November', quantity: 1, unit: 'MON', unit_amount: 300000, tax_category: 'S', tax_rate: 19 },
      { description: 'Extra hours', quantity: 7.5, unit: 'HUR', unit_amount: 9500, tax_category: 'S', tax_rate: 19 },
    ],
    service_period: { start: '2026-11-01', end: '2026-11-30' },
    rounding: 'group',
  }),
  'paid-in-full-no-terms': buildDocument({
    number: 'INV-2026-0105',
    lines: [{ description: 'Logo design', quantity: 1, unit_amount: 90000, tax_category: 'S', tax_rate: 19 }],
    amount_paid: 107100,
    due_date: null,
    payment_instructions: null,
  }),
  'credit-note-reverse-charge': buildDocument({
    type_code: 381,
    number: 'CN-0009',
    preceding_invoice: { number: 'INV-2026-0042', issue_date: '2026-11-20' },
    lines: [{ description: 'Software development (hours not worked)', quantity: 6, unit: 'HUR', unit_amount: 9500, tax_category: 'AE', tax_rate: 0 }],
    exemption: { code: 'VATEX-EU-AE' },
    service_period: { start: '2026-10-01', end: '2026-10-31' },
  }),
  'credit-note-intra-community': buildDocument({
    type_code: 381,
    number: 'CN-0010',
    preceding_invoice: { number: 'INV-2026-0101', issue_date: '2026-11-20' },
    lines: [{ description: 'Brackets returned', quantity: 20, unit_amount: 420, tax_category: 'K', tax_rate: 0 }],
    delivery_date: '2026-11-18',
    bill_to: buyerFR,
    exemption: { code: 'VATEX-EU-IC' },
  }),
  'credit-note-usd-no-iban': buildDocument({
    type_code: 381,
    number: 'CN-0008',
    currency: 'USD',
    preceding_invoice: { number: 'INV-2026-0050', issue_date: null },
    issuer: { ...issuerDE, iban: null, bic: null },
    payment_instructions: null,
    lines: [{ description: 'Returned licences', quantity: 2, unit_amount: 12000, tax_category: 'S', tax_rate: 19 }],
  }),
};
