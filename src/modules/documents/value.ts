// One document value (contract §20): an invoice, a credit note or a quote as the EN 16931 semantic model
// (seller, buyer, dates, lines, allowances, tax breakdown with its notes, notes, payment means) plus what a
// person's copy shows beside it (its language, status and links). It is built once per read by one function
// per source (from-invoice.ts, from-credit-note.ts, from-quote.ts), and every output renders it alone: the CII
// and UBL writers (einvoice/), the printed form the page, the PDF and the emails share (render/printed.ts).
// So the page and the XML cannot disagree. Money is integer minor units throughout; decimals are written
// from those integers here, never through floating point.

export type EInvoiceFormat = 'cii' | 'ubl';

/** EN 16931 VAT category codes (UNCL 5305 subset). */
export type TaxCategory = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O';

export type EInvoiceAddress = {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
};

export type EInvoiceLine = {
  id: string;
  description: string;
  /** At most 3 decimals. */
  quantity: number;
  /** UN/ECE Rec. 20 code, e.g. "C62", "HUR". */
  unit: string;
  /** Net price per unit before the line's discount, minor units. */
  unit_amount: number;
  discount_percent: number;
  /** round(gross × discount_percent / 100), minor units. */
  discount_amount: number;
  /** The line's net: round(quantity × unit_amount) − discount_amount. */
  amount: number;
  tax_category: TaxCategory;
  /** Percent, at most 3 decimals; 0 for every category but S. */
  tax_rate: number;
  /** The line's own tax (tax_rounding "line"); null where tax is rounded per group. Printed only. */
  tax?: number | null;
};

export type EInvoiceTaxGroup = {
  category: TaxCategory;
  rate: number;
  /** The group's line nets less its share of the document discount. */
  taxable_amount: number;
  tax_amount: number;
  /** BT-120, in the document's language: the same text the document prints for the group. */
  exemption_reason: string | null;
  exemption_code: string | null;
  /** What the document prints under its totals for this group: the exemption reason, or for Z (which BR-Z-10 keeps out of the XML) its own note. */
  note?: string | null;
};

export type EInvoiceDocument = {
  /** 380 commercial invoice, 381 credit note. */
  type_code: 380 | 381;
  number: string;
  /** YYYY-MM-DD. */
  issue_date: string;
  /** BT-9; YYYY-MM-DD. */
  due_date: string | null;
  /** Actual delivery date as the XML writes it (BT-72): the service date, else for a K group the issue date (BR-IC-11). */
  delivery_date?: string | null;
  /** The invoicing period (BG-14): the service period. */
  service_period?: { start: string; end: string } | null;
  /** For a credit note (381): the invoice it credits (BT-25, BT-26). */
  preceding_invoice: { number: string; issue_date: string | null } | null;
  currency: string;
  /** ISO 4217 minor-unit exponent of `currency` (JPY 0, EUR 2, KWD 3). */
  currency_exponent: number;
  /** BT-10, e.g. a German Leitweg-ID. */
  buyer_reference: string | null;
  /** BT-13. */
  purchase_order: string | null;
  /** BT-22. */
  notes: string | null;
  /** The issuer's legal notes in the document's language, printed at the foot and carried as a note (BT-22) too. */
  legal_notes?: string | null;
  issuer: {
    legal_name: string;
    /** The name it trades under (the workspace's name), printed where the legal name is not set. */
    trading_name?: string | null;
    /** BT-31. */
    vat_id: string | null;
    /** BT-30. */
    registration_id: string | null;
    /** "<scheme>:<id>" (BT-34). */
    peppol_id: string | null;
    /** A tax registration other than the VAT id (BT-32). */
    tax_id: string | null;
    email: string | null;
    address: EInvoiceAddress;
    iban: string | null;
    bic: string | null;
  };
  bill_to: {
    name: string;
    company: string | null;
    email: string | null;
    /** BT-48. */
    vat_id: string | null;
    /** "<scheme>:<id>" (BT-49). */
    peppol_id: string | null;
    address: EInvoiceAddress;
  };
  /** Free text on how to pay (BT-20). */
  payment_instructions: string | null;
  lines: EInvoiceLine[];
  /** The word an allowance without a reason of its own carries (a line's discount; BT-97, BT-140), in the document's language. */
  allowance_reason?: string;
  /** The document discount (applied before tax, split over the tax groups). */
  discount: { amount: number; reason: string | null } | null;
  /** Σ line amount. */
  subtotal: number;
  discount_total: number;
  tax: number;
  /** subtotal − discount_total + tax. */
  total: number;
  /** Paid before this document (and, for an invoice, credited): BT-113. */
  amount_paid: number;
  /** total − amount_paid (BT-115). */
  amount_due: number;
  tax_breakdown: EInvoiceTaxGroup[];
};

export type DocumentKind = 'invoice' | 'credit_note' | 'quote';

/** Which status banner a person's copy shows (its style); its words are `banner_text`. */
export type Banner = 'PAID' | 'VOID' | 'Overdue' | 'DRAFT';

/**
 * The document value: the EN 16931 model above (what the XML writers read) with what only a person's copy
 * shows: its kind, its language, the service date as given, its state and its links.
 */
export type DocumentValue = EInvoiceDocument & {
  kind: DocumentKind;
  /** The BCP 47 locale it is read in: its language and its number and date formats. */
  locale: string;
  /** BT-72 as the document states it, null when it states none (the issue date then stands for it). */
  service_date: string | null;
  service_period: { start: string; end: string } | null;
  legal_notes: string | null;
  tax_rounding: 'line' | 'group';
  state: {
    /** A draft: its number and contents may still change, and it is never written as XML. */
    draft: boolean;
    /**
     * A draft of a workspace that numbers at send (§20) with no number yet: `number` holds its id, which
     * the readiness check takes for the number it will draw, and DRAFT is printed where the number goes.
     */
    unnumbered?: boolean;
    banner: Banner | null;
    /** The banner's words, in the document's language. */
    banner_text: string | null;
    /** Paid, not counting credit notes (the XML's BT-113 counts both). */
    paid: number;
    /** What credit notes took off an invoice's total (§17). */
    credited: number;
    hosted_url: string | null;
    pdf_url: string | null;
  };
};

/**
 * The value of an EN 16931 document that has no record behind it (one read from XML, a fixture): an invoice
 * or credit note as its type code says, with nothing paid, no links and no date of supply beyond its own.
 */
export function valueOfEInvoice(doc: EInvoiceDocument, locale = 'en'): DocumentValue {
  return {
    ...doc,
    kind: doc.type_code === 381 ? 'credit_note' : 'invoice',
    locale,
    service_date: doc.delivery_date ?? null,
    service_period: doc.service_period ?? null,
    legal_notes: doc.legal_notes ?? null,
    tax_rounding: doc.lines.some((line) => line.tax === null || line.tax === undefined) ? 'group' : 'line',
    state: { draft: false, banner: null, banner_text: null, paid: doc.amount_paid, credited: 0, hosted_url: null, pdf_url: null },
  };
}

/** Minor units as a decimal string with the currency's exponent: (123456, 2) → "1234.56", (-5, 2) → "-0.05". */
export function decimalAmount(minor: number, exponent: number): string {
  return scaledToDecimal(BigInt(minor), exponent, false);
}

/**
 * A quantity or percentage (a JSON number with at most 3 decimals) as a plain decimal without trailing zeros:
 * 1.5 → "1.5", 19 → "19", 8.25 → "8.25". Read from its shortest decimal form, not by multiplying floats.
 */
export function decimalNumber(value: number): string {
  return scaledToDecimal(BigInt(thousandths(value)), 3, true);
}

/** A number with at most 3 decimals as an integer count of thousandths, exactly (1.005 → 1005). */
export function thousandths(value: number): number {
  const [whole = '', fraction = ''] = Math.abs(value).toString().split('.');
  if (fraction.length > 3 || !/^\d+$/.test(whole) || !/^\d*$/.test(fraction)) throw new RangeError(`not a number with at most 3 decimals: ${value}`);
  const milli = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
  return value < 0 ? -milli : milli;
}

function scaledToDecimal(scaled: bigint, exponent: number, trim: boolean): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(exponent + 1, '0');
  let whole = digits.slice(0, digits.length - exponent);
  let fraction = exponent > 0 ? digits.slice(-exponent) : '';
  if (trim) fraction = fraction.replace(/0+$/, '');
  whole ||= '0';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The line's amount before its discount: what quantity × price came to. */
export const lineGross = (line: EInvoiceLine) => line.amount + line.discount_amount;

/**
 * Each tax group's share of the document discount: the group's line nets less its taxable amount. The
 * document-level allowances are written per group from this, so each group's taxable amount adds up exactly
 * (EN 16931 BR-S-08 and its siblings).
 */
export function discountParts(doc: EInvoiceDocument): number[] {
  return doc.tax_breakdown.map((group) => groupNet(doc, group) - group.taxable_amount);
}

export function groupNet(doc: EInvoiceDocument, group: Pick<EInvoiceTaxGroup, 'category' | 'rate'>): number {
  let net = 0;
  for (const line of doc.lines) if (sameGroup(line, group)) net += line.amount;
  return net;
}

export const sameGroup = (line: Pick<EInvoiceLine, 'tax_category' | 'tax_rate'>, group: Pick<EInvoiceTaxGroup, 'category' | 'rate'>) =>
  line.tax_category === group.category && thousandths(line.tax_rate) === thousandths(group.rate);

/** "0088:5790000435975" → scheme "0088", id "5790000435975"; null when it is not of that shape. */
export function peppolEndpoint(value: string | null): { scheme: string; id: string } | null {
  const match = value ? /^([0-9A-Za-z]{2,4}):(\S.*)$/.exec(value.trim()) : null;
  return match ? { scheme: match[1]!.toUpperCase(), id: match[2]!.trim() } : null;
}

/** The buyer's name as EN 16931 means it (BT-44): the company when there is one, else the person. */
export const buyerName = (doc: EInvoiceDocument) => doc.bill_to.company?.trim() || doc.bill_to.name.trim();

/** IBANs and BICs are written without the spaces people type into them. */
export const compact = (value: string | null) => value?.replace(/\s+/g, '').toUpperCase() ?? null;

/** Payment means: credit transfer to the issuer's IBAN, SEPA (58) in euro, plain credit transfer (30) otherwise. */
export function paymentMeansCode(doc: EInvoiceDocument): '58' | '30' | null {
  if (!doc.issuer.iban) return null;
  return doc.currency === 'EUR' ? '58' : '30';
}
