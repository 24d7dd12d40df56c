// From a quote (§18) as the API shows it to the one document value: the same EN 16931 model as an invoice's
// (parties, lines, discount, tax groups with their notes), valid until its `valid_until`, its terms where an
// invoice says how to pay, and nothing paid or due. A quote is never written as XML; its page and PDF are
// renderings of this value as an invoice's are of its own.
import { exponentOf } from '../../lib/currencies';
import { breakdown, type InvoiceForEInvoice, line, parties } from './from-invoice';
import { labelsFor, languageOf } from './labels/language';
import { quoteLabels } from './labels/quote';
import { chooseText } from './localized-text';
import type { Banner, DocumentValue } from './value';

export type QuoteSource = Pick<InvoiceForEInvoice, 'number' | 'currency' | 'issue_date' | 'notes' | 'issuer' | 'bill_to' | 'line_items' | 'discount' | 'subtotal' | 'discount_total' | 'tax' | 'total' | 'tax_breakdown' | 'tax_exemption_reason' | 'service_date' | 'service_period'> & {
  status: 'draft' | 'open' | 'accepted' | 'declined' | 'expired' | 'canceled' | 'converted';
  /** Open but past its validity: shown as expired before the cron marks it so. */
  expired: boolean;
  /** A draft with no number yet (§20 `number_at: "send"`): `number` is its id. */
  unnumbered?: boolean;
  valid_until: string;
  terms: string | null;
  locale: string;
  tax_rounding: 'line' | 'group';
  hosted_url: string | null;
  pdf_url: string | null;
};

export function quoteValue(source: QuoteSource): DocumentValue {
  const q = quoteLabels(source.locale);
  const banners: Partial<Record<QuoteSource['status'], [Banner, string]>> = {
    draft: ['DRAFT', q.draft], accepted: ['PAID', q.bannerAccepted], converted: ['PAID', q.bannerAccepted],
    declined: ['VOID', q.bannerDeclined], canceled: ['VOID', q.bannerCanceled], expired: ['VOID', q.bannerExpired],
  };
  const shown = source.expired ? (['VOID', q.bannerExpired] as [Banner, string]) : banners[source.status];
  const discountTotal = source.discount_total ?? 0;
  const period = source.service_period ?? null;
  return {
    kind: 'quote',
    type_code: 380,
    number: source.number,
    issue_date: source.issue_date,
    due_date: source.valid_until,
    delivery_date: source.service_date ?? null,
    service_date: source.service_date ?? null,
    service_period: period,
    preceding_invoice: null,
    currency: source.currency,
    currency_exponent: exponentOf(source.currency),
    buyer_reference: null,
    purchase_order: null,
    notes: source.notes ?? null,
    legal_notes: chooseText(source.issuer?.legal_notes, source.locale),
    ...parties(source.issuer, source.bill_to),
    payment_instructions: source.terms,
    allowance_reason: labelsFor(source.locale).common.discount,
    lines: source.line_items.map(line),
    discount: discountTotal > 0 ? { amount: discountTotal, reason: source.discount?.reason ?? null } : null,
    subtotal: source.subtotal,
    discount_total: discountTotal,
    tax: source.tax,
    total: source.total,
    amount_paid: 0,
    amount_due: source.total,
    tax_breakdown: breakdown(source.tax_breakdown, languageOf(source.locale), source.tax_exemption_reason),
    locale: source.locale,
    tax_rounding: source.tax_rounding,
    state: { draft: source.status === 'draft', unnumbered: source.unnumbered ?? false, banner: shown?.[0] ?? null, banner_text: shown?.[1] ?? null, paid: 0, credited: 0, hosted_url: source.hosted_url, pdf_url: source.pdf_url },
  };
}
