// From an invoice or credit note as the API shows it (contract §10, §15, §17: its snapshot of issuer and bill_to,
// its lines and tax_breakdown from the tax engine) to the EInvoiceDocument the renderers take. It reads the
// public shape, not database rows, so it does not depend on how the records are stored; it computes no tax:
// every amount is the record's own. Fields a record may not carry yet read as the contract's defaults.
import { exponentOf } from '../../../lib/currencies';
import type { EInvoiceAddress, EInvoiceDocument, EInvoiceLine, EInvoiceTaxGroup, TaxCategory } from './document';

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

const line = (l: Line): EInvoiceLine => ({
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
});

/**
 * The invoice's tax groups as it stored them: the tax engine already gave each exempt group its
 * reason and code (the invoice's own ones go to the group they belong to, defaults to the others), so
 * they are taken as they are, never filled in again here.
 */
function breakdown(groups: Breakdown[] | null | undefined): EInvoiceTaxGroup[] {
  return (groups ?? []).map((g) => {
    const exempt = g.category !== 'S' && g.category !== 'Z';
    return {
      category: g.category,
      rate: g.rate,
      taxable_amount: g.taxable_amount,
      tax_amount: g.tax_amount,
      exemption_reason: exempt ? (g.exemption_reason ?? null) : null,
      exemption_code: exempt ? (g.exemption_code ?? null) : null,
    };
  });
}

function parties(issuer: Issuer | null, billTo: BillTo | null): Pick<EInvoiceDocument, 'issuer' | 'bill_to'> {
  return {
    issuer: {
      legal_name: issuer?.legal_name || issuer?.name || '',
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

/** An invoice that is no longer a draft, as an EN 16931 commercial invoice (380). */
export function toEInvoiceDocument(invoice: InvoiceForEInvoice, paymentInstructions: string | null = null): EInvoiceDocument {
  const discountTotal = invoice.discount_total ?? 0;
  // Credit notes lower what is due without being payments; EN 16931 knows only "paid in advance" (BT-113).
  const settled = invoice.amount_paid + (invoice.credited_amount ?? 0);
  return {
    type_code: 380,
    number: invoice.number,
    issue_date: invoice.issue_date,
    due_date: invoice.due_date,
    // The invoice holds no supply date of its own: the issue date stands for it (written only for K).
    delivery_date: invoice.issue_date,
    preceding_invoice: null,
    currency: invoice.currency,
    currency_exponent: exponentOf(invoice.currency),
    buyer_reference: invoice.buyer_reference ?? null,
    purchase_order: invoice.purchase_order ?? null,
    notes: invoice.notes ?? null,
    ...parties(invoice.issuer, invoice.bill_to),
    payment_instructions: invoice.issuer?.payment_instructions ?? paymentInstructions,
    lines: invoice.line_items.map(line),
    discount: discountTotal > 0 ? { amount: discountTotal, reason: invoice.discount?.reason ?? null } : null,
    subtotal: invoice.subtotal,
    discount_total: discountTotal,
    tax: invoice.tax,
    total: invoice.total,
    amount_paid: settled,
    amount_due: invoice.total - settled,
    tax_breakdown: breakdown(invoice.tax_breakdown),
  };
}

/** A credit note as an EN 16931 credit note (381) of its invoice: the amount it credits is what it states. */
export function creditNoteToEInvoiceDocument(note: CreditNoteForEInvoice, invoice: InvoiceForEInvoice): EInvoiceDocument {
  const discountTotal = note.discount_total ?? 0;
  return {
    type_code: 381,
    number: note.number,
    issue_date: note.issue_date,
    // Settled when issued (it lowers what is due or is refunded at once): BR-CO-25 wants a date for it.
    due_date: note.issue_date,
    delivery_date: invoice.issue_date,
    preceding_invoice: { number: invoice.number, issue_date: invoice.issue_date },
    currency: note.currency,
    currency_exponent: exponentOf(note.currency),
    buyer_reference: invoice.buyer_reference ?? null,
    purchase_order: invoice.purchase_order ?? null,
    notes: note.memo ?? null,
    ...parties(invoice.issuer, invoice.bill_to),
    payment_instructions: null,
    lines: note.line_items.map(line),
    discount: discountTotal > 0 ? { amount: discountTotal, reason: invoice.discount?.reason ?? null } : null,
    subtotal: note.subtotal,
    discount_total: discountTotal,
    tax: note.tax,
    total: note.total,
    amount_paid: 0,
    amount_due: note.total,
    tax_breakdown: breakdown(note.tax_breakdown),
  };
}
