// From a credit note (§17) and the invoice it corrects to the one document value: an EN 16931 credit note
// (381) naming the invoice (BT-25), with the invoice's parties, references and language, so the credit
// note reads as its invoice does. Every amount is the credit note's own.
import { exponentOf } from '../../lib/currencies';
import { type CreditNoteForEInvoice, breakdown, deliveryDate, type InvoiceSource, line, parties } from './from-invoice';
import { labelsFor, languageOf } from './labels/language';
import { chooseText } from './localized-text';
import type { DocumentValue, EInvoiceDocument } from './value';

/** A credit note as an EN 16931 credit note (381) of its invoice: the amount it credits is what it states. */
export function creditNoteToEInvoiceDocument(note: CreditNoteForEInvoice, invoice: Omit<InvoiceSource, 'status' | 'overdue' | 'locale' | 'tax_rounding' | 'payment_instructions' | 'hosted_url' | 'pdf_url'>, locale = 'en'): EInvoiceDocument {
  const discountTotal = note.discount_total ?? 0;
  const groups = breakdown(note.tax_breakdown, languageOf(locale), invoice.tax_exemption_reason);
  const period = invoice.service_period ?? null;
  return {
    type_code: 381,
    number: note.number,
    issue_date: note.issue_date,
    // Settled when issued (it lowers what is due or is refunded at once): BR-CO-25 wants a date for it.
    due_date: note.issue_date,
    // It corrects the invoice's supply: the invoice's date of supply, else (as before) the invoice's issue date.
    delivery_date: deliveryDate(invoice.issue_date, invoice.service_date ?? null, period, groups),
    service_period: period,
    preceding_invoice: { number: invoice.number, issue_date: invoice.issue_date },
    currency: note.currency,
    currency_exponent: exponentOf(note.currency),
    buyer_reference: invoice.buyer_reference ?? null,
    purchase_order: invoice.purchase_order ?? null,
    notes: note.memo ?? null,
    legal_notes: chooseText(invoice.issuer?.legal_notes, locale),
    ...parties(invoice.issuer, invoice.bill_to),
    payment_instructions: null,
    allowance_reason: labelsFor(locale).common.discount,
    lines: note.line_items.map(line),
    discount: discountTotal > 0 ? { amount: discountTotal, reason: invoice.discount?.reason ?? null } : null,
    subtotal: note.subtotal,
    discount_total: discountTotal,
    tax: note.tax,
    total: note.total,
    amount_paid: 0,
    amount_due: note.total,
    tax_breakdown: groups,
  };
}

/** The credit note's document value: the invoice's language, its own links, no banner and nothing to pay. */
export function creditNoteValue(note: CreditNoteForEInvoice & { tax_rounding: 'line' | 'group'; hosted_url: string | null; pdf_url: string | null }, invoice: InvoiceSource): DocumentValue {
  const doc = creditNoteToEInvoiceDocument(note, invoice, invoice.locale);
  return {
    ...doc,
    kind: 'credit_note',
    locale: invoice.locale,
    service_date: invoice.service_date ?? null,
    service_period: invoice.service_period ?? null,
    legal_notes: doc.legal_notes ?? null,
    tax_rounding: note.tax_rounding,
    state: { draft: false, banner: null, banner_text: null, paid: 0, credited: 0, hosted_url: note.hosted_url, pdf_url: note.pdf_url },
  };
}
