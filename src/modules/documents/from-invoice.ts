// From an invoice as the API shows it (contract §10, §15, §20: its snapshot of issuer and bill_to, its lines
// and tax_breakdown from the tax engine) to the one document value (value.ts) every output renders. It reads
// the public shape, not database rows, so it does not depend on how the records are stored; it computes no
// tax: every amount is the record's own. Fields a record may not carry yet read as the contract's defaults.
// Its texts (tax notes, legal notes, payment instructions) are chosen here, once, in the document's
// language, so the page prints what the XML carries.
import { exponentOf } from '../../lib/currencies';
import { invoiceLabels } from './labels/invoice';
import { labelsFor, type Language, languageOf } from './labels/language';
import { chooseText, type LocalizedText } from './localized-text';
import { defaultTaxNote } from './tax-notes';
import { EXEMPTION_DEFAULTS } from './totals';
import type { Banner, DocumentValue, EInvoiceAddress, EInvoiceDocument, EInvoiceLine, EInvoiceTaxGroup, TaxCategory } from './value';

type Address = Partial<EInvoiceAddress> | null | undefined;

type Issuer = {
  name: string;
  legal_name?: string | null;
  email?: string | null;
  address?: Address;
  tax_id?: string | null;
  vat_id?: string | null;
  registration_id?: string | null;
  peppol_id?: string | null;
  iban?: string | null;
  bic?: string | null;
  payment_instructions?: string | null;
  /** Text, or texts by language (§20). */
  legal_notes?: LocalizedText | null;
};

type BillTo = {
  name: string;
  company?: string | null;
  email?: string | null;
  address?: Address;
  tax_id?: string | null;
  vat_id?: string | null;
  peppol_id?: string | null;
};

type Line = {
  id: string;
  description: string;
  quantity: number;
  unit?: string | null;
  unit_amount: number;
  discount_percent?: number | null;
  discount_amount?: number | null;
  amount: number;
  tax_category?: TaxCategory | null;
  tax_rate: number;
  tax?: number | null;
};

type Breakdown = { category: TaxCategory; rate: number; taxable_amount: number; tax_amount: number; exemption_reason?: string | null; exemption_code?: string | null };

/** What an invoice (§10, §15) carries that an e-invoice needs. */
export type InvoiceForEInvoice = {
  number: string;
  currency: string;
  issue_date: string;
  due_date: string | null;
  notes?: string | null;
  buyer_reference?: string | null;
  purchase_order?: string | null;
  issuer: Issuer | null;
  bill_to: BillTo | null;
  line_items: Line[];
  discount?: { amount?: number | null; percent?: number | null; reason?: string | null } | null;
  subtotal: number;
  discount_total?: number | null;
  tax: number;
  total: number;
  amount_paid: number;
  credited_amount?: number | null;
  tax_breakdown?: Breakdown[] | null;
  tax_exemption_reason?: string | null;
  tax_exemption_code?: string | null;
  service_date?: string | null;
  service_period?: { start: string; end: string } | null;
};

/** What a credit note (§17) carries; its parties and references come from its invoice. */
export type CreditNoteForEInvoice = Pick<InvoiceForEInvoice, 'number' | 'currency' | 'issue_date' | 'line_items' | 'subtotal' | 'discount_total' | 'tax' | 'total' | 'tax_breakdown'> & {
  memo?: string | null;
};

const address = (a: Address): EInvoiceAddress => ({
  line1: a?.line1 ?? null,
  line2: a?.line2 ?? null,
  city: a?.city ?? null,
  region: a?.region ?? null,
  postal_code: a?.postal_code ?? null,
  country: a?.country ?? null,
});

export const line = (l: Line): EInvoiceLine => ({
  id: l.id,
  description: l.description,
  quantity: l.quantity,
  unit: l.unit ?? 'C62',
  unit_amount: l.unit_amount,
  discount_percent: l.discount_percent ?? 0,
  discount_amount: l.discount_amount ?? 0,
  amount: l.amount,
  // The contract's default for a line without a category: S with a rate, else Z (O needs the whole invoice's
  // context and comes from the tax engine).
  tax_category: l.tax_category ?? (l.tax_rate > 0 ? 'S' : 'Z'),
  tax_rate: l.tax_rate,
  tax: l.tax ?? null,
});

/**
 * The invoice's tax groups as it stored them: the tax engine already gave each exempt group its reason
 * and code (the invoice's own ones go to the group they belong to, the category's English default to
 * the others). A default reads in the document's language, and is what the group prints and the XML
 * carries (BT-120); a reason the invoice gave is kept as written. An E group given only a code prints
 * the category's text beside it.
 */
export function breakdown(groups: Breakdown[] | null | undefined, language: Language, ownReason: string | null | undefined): EInvoiceTaxGroup[] {
  return (groups ?? []).map((g) => {
    const exempt = g.category !== 'S' && g.category !== 'Z';
    const stored = exempt ? (g.exemption_reason ?? null) : null;
    const isDefault = stored !== null && stored !== ownReason && stored === EXEMPTION_DEFAULTS[g.category as keyof typeof EXEMPTION_DEFAULTS];
    const reason = exempt ? (stored === null || isDefault ? defaultTaxNote(g.category, language) : stored) : null;
    return {
      category: g.category,
      rate: g.rate,
      taxable_amount: g.taxable_amount,
      tax_amount: g.tax_amount,
      exemption_reason: reason,
      exemption_code: exempt ? (g.exemption_code ?? null) : null,
      // BR-Z-10 keeps a reason out of a Z group's XML; the document still says why it bears no tax.
      note: g.category === 'Z' ? defaultTaxNote('Z', language) : reason,
    };
  });
}

/** The date of supply the XML writes (BT-72): the one given, else for an intra-community supply (K) without a period the issue date (BR-IC-11). */
export function deliveryDate(issueDate: string, serviceDate: string | null, period: { start: string; end: string } | null, groups: EInvoiceTaxGroup[]): string | null {
  if (serviceDate) return serviceDate;
  return !period && groups.some((g) => g.category === 'K') ? issueDate : null;
}

export function parties(issuer: Issuer | null, billTo: BillTo | null): Pick<EInvoiceDocument, 'issuer' | 'bill_to'> {
  return {
    issuer: {
      legal_name: issuer?.legal_name || issuer?.name || '',
      trading_name: issuer?.name ?? null,
      vat_id: issuer?.vat_id ?? null,
      registration_id: issuer?.registration_id ?? null,
      peppol_id: issuer?.peppol_id ?? null,
      // The issuer's tax_id is a second registration (BT-32) only when it is not the VAT id under its old name.
      tax_id: issuer?.tax_id && issuer.tax_id !== issuer.vat_id ? issuer.tax_id : null,
      email: issuer?.email ?? null,
      address: address(issuer?.address),
      iban: issuer?.iban ?? null,
      bic: issuer?.bic ?? null,
    },
    bill_to: {
      name: billTo?.name ?? '',
      company: billTo?.company ?? null,
      email: billTo?.email ?? null,
      vat_id: billTo?.vat_id ?? null,
      peppol_id: billTo?.peppol_id ?? null,
      address: address(billTo?.address),
    },
  };
}

/** An invoice as an EN 16931 commercial invoice (380), its texts in the language of `locale`. */
export function toEInvoiceDocument(invoice: InvoiceForEInvoice, paymentInstructions: LocalizedText | null = null, locale = 'en'): EInvoiceDocument {
  const discountTotal = invoice.discount_total ?? 0;
  const language = languageOf(locale);
  // Credit notes lower what is due without being payments; EN 16931 knows only "paid in advance" (BT-113).
  const settled = invoice.amount_paid + (invoice.credited_amount ?? 0);
  const groups = breakdown(invoice.tax_breakdown, language, invoice.tax_exemption_reason);
  const period = invoice.service_period ?? null;
  return {
    type_code: 380,
    number: invoice.number,
    issue_date: invoice.issue_date,
    due_date: invoice.due_date,
    delivery_date: deliveryDate(invoice.issue_date, invoice.service_date ?? null, period, groups),
    service_period: period,
    preceding_invoice: null,
    currency: invoice.currency,
    currency_exponent: exponentOf(invoice.currency),
    buyer_reference: invoice.buyer_reference ?? null,
    purchase_order: invoice.purchase_order ?? null,
    notes: invoice.notes ?? null,
    legal_notes: chooseText(invoice.issuer?.legal_notes, locale),
    ...parties(invoice.issuer, invoice.bill_to),
    payment_instructions: chooseText(invoice.issuer?.payment_instructions ?? paymentInstructions, locale),
    allowance_reason: labelsFor(locale).common.discount,
    lines: invoice.line_items.map(line),
    discount: discountTotal > 0 ? { amount: discountTotal, reason: invoice.discount?.reason ?? null } : null,
    subtotal: invoice.subtotal,
    discount_total: discountTotal,
    tax: invoice.tax,
    total: invoice.total,
    amount_paid: settled,
    amount_due: invoice.total - settled,
    tax_breakdown: groups,
  };
}

/** What an invoice's value reads beside its EN 16931 content: its state, language and links. */
export type InvoiceSource = InvoiceForEInvoice & {
  status: 'draft' | 'open' | 'paid' | 'void';
  overdue: boolean;
  /** A draft with no number yet (§20 `number_at: "send"`): `number` is its id. */
  unnumbered?: boolean;
  /** The locale it is read in: the one snapshotted at send, else (a draft) the one sending would take. */
  locale: string;
  tax_rounding: 'line' | 'group';
  payment_instructions: LocalizedText | null;
  hosted_url: string | null;
  pdf_url: string | null;
};

function invoiceBanner(source: InvoiceSource): Banner | null {
  if (source.status === 'paid') return 'PAID';
  if (source.status === 'void') return 'VOID';
  if (source.status === 'draft') return 'DRAFT';
  return source.overdue ? 'Overdue' : null;
}

/** The invoice's document value: built once per read, rendered by the page, the PDF, the emails, CII and UBL. */
export function invoiceValue(source: InvoiceSource): DocumentValue {
  const labels = invoiceLabels(source.locale);
  const banner = invoiceBanner(source);
  return {
    ...toEInvoiceDocument(source, source.payment_instructions, source.locale),
    kind: 'invoice',
    locale: source.locale,
    service_date: source.service_date ?? null,
    service_period: source.service_period ?? null,
    legal_notes: chooseText(source.issuer?.legal_notes, source.locale),
    tax_rounding: source.tax_rounding,
    state: {
      draft: source.status === 'draft',
      unnumbered: source.unnumbered ?? false,
      banner,
      banner_text: banner && { PAID: labels.bannerPaid, VOID: labels.bannerVoid, Overdue: labels.bannerOverdue, DRAFT: labels.draft }[banner],
      paid: source.amount_paid,
      credited: source.credited_amount ?? 0,
      hosted_url: source.hosted_url,
      pdf_url: source.pdf_url,
    },
  };
}
