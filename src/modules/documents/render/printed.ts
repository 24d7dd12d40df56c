// The document value as people read it (contract §10, §20): every word in the document's language and
// every amount and date formatted once, here, from the value alone, for the hosted page, the PDF (the
// renderer worker takes this form: renderer/contract.ts) and the emails. What the XML carries (the
// parties' numbers, the date of supply, each tax group with its note, each discount, the payment account)
// is printed from the same value, so the page and the XML cannot disagree.
import { formatMoney } from '../../../lib/money';
import { type InvoiceLabels, invoiceLabels } from '../labels/invoice';
import { type LegalLabels, legalLabelsIn } from '../labels/legal';
import { quoteLabels } from '../labels/quote';
import { compact, discountParts, type DocumentValue, type Banner } from '../value';
import { addressLines } from './address';

export type PrintedLine = {
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  tax: string;
  /** The line's net. */
  amount: string;
  /** For a discounted line: its gross and its discount, percent and amount ("1.000,00 € vor Rabatt, −10 % = −100,00 €"). */
  discount: string | null;
};

export type PrintedDocument = {
  kind: DocumentValue['kind'];
  number: string;
  /** PAID, VOID, Overdue or DRAFT: which banner it shows, if any. */
  banner: Banner | null;
  /** What that banner says, in the document's language. */
  bannerText: string | null;
  /** Who bills and who pays, by name (the emails' sender and greeting). */
  issuer: { name: string; legal_name: string | null; email: string | null };
  billTo: { name: string; company: string | null; email: string | null };
  /** Every line of each party's block under its name: address, email, and each number with its label. */
  seller: string[];
  buyer: string[];
  issueDate: string;
  dueDate: string;
  /** The date or period of supply as a sentence, or that it is the issue date; null where the document states none. */
  serviceDate: string | null;
  /** Buyer reference and purchase order, with their labels. */
  references: string[];
  currency: string;
  lines: PrintedLine[];
  subtotal: string;
  /** The document discount taken off the subtotal, formatted as a negative amount; null when there is none. */
  discount: string | null;
  /** Its label with its reason: "Rabatt (Treuerabatt)". */
  discountLabel: string;
  /** What tax is charged on when a discount made it differ from the subtotal. */
  netAfterDiscount: string | null;
  /** Each tax group: its rate, what it is charged on (and its part of the discount), and its tax. */
  taxGroups: { label: string; amount: string }[];
  tax: string;
  total: string;
  amountPaid: string;
  /** What credit notes took off the total (§17), as a negative amount; null when nothing is credited. */
  credited?: string | null;
  amountDue: string;
  /** Each tax group's exemption reason or note, printed under the totals. */
  taxNotes: string[];
  notes: string | null;
  paymentInstructions: string | null;
  /** The account, the reference and what to pay by when: null for a document that asks for no payment. */
  payment: string[] | null;
  /** The issuer's legal notes in the document's language, at the foot. */
  legalNotes: string | null;
  locale: string;
  labels: PrintedLabels;
  hostedUrl: string | null;
  pdfUrl: string | null;
  /** Set on a credit note (§17), printed with this layout: its title and the invoice it corrects, no amount due. */
  credit?: { title: string; corrects: string };
  /** False for a document that asks for no payment (a quote, §18): its totals end on the total. */
  payable?: boolean;
  /** The page's title, when not the invoice's. */
  title?: string;
  /** The e-invoice XML downloads beside the PDF (§15): only the formats the invoice is ready in. */
  xmlLinks?: { format: 'cii' | 'ubl'; url: string }[];
};

export type PrintedLabels = InvoiceLabels & LegalLabels;

/** @deprecated The name the invoice's printed form had before it became every document's. */
export type InvoiceDocument = PrintedDocument;

/** Formats a calendar date (YYYY-MM-DD) for the locale, as the date it is, whatever the time zone. */
export function formatDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

function labelsFor(value: DocumentValue): PrintedLabels {
  const legal = legalLabelsIn(value.locale);
  if (value.kind !== 'quote') return { ...invoiceLabels(value.locale), ...legal };
  // A quote prints with the invoice's layout in a quote's words.
  const q = quoteLabels(value.locale);
  // A quote bills no one yet: its client is its recipient (§20), never "Bill to".
  return { ...q, invoice: q.quote, due: q.validUntil, howToPay: q.terms, invoiceFrom: q.quoteFrom, billTo: q.recipient, ...legal };
}

/** The printed form of `value`: what the page, the PDF and the emails show, in its language. */
export function printedDocument(value: DocumentValue): PrintedDocument {
  const { locale } = value;
  const labels = labelsFor(value);
  const money = (amount: number) => formatMoney(amount, value.currency, locale);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const percent = (rate: number) => `${number.format(rate)} %`;
  const date = (d: string) => formatDate(d, locale);
  const { issuer, bill_to: billTo } = value;
  const issuerName = issuer.legal_name || issuer.trading_name || '';
  const labelled = (label: string, id: string | null | undefined) => (id ? [`${label} ${id}`] : []);

  const seller = [
    ...addressLines(issuer.address, locale),
    ...(issuer.email ? [issuer.email] : []),
    ...labelled(labels.vatId, issuer.vat_id),
    ...labelled(labels.taxNumber, issuer.tax_id),
    ...labelled(labels.registrationId, issuer.registration_id),
    ...labelled(labels.peppolId, issuer.peppol_id),
  ];
  const buyer = [
    ...(billTo.company ? [billTo.company] : []),
    ...addressLines(billTo.address, locale),
    ...(billTo.email ? [billTo.email] : []),
    ...labelled(labels.vatId, billTo.vat_id),
    ...labelled(labels.peppolId, billTo.peppol_id),
  ];

  const serviceDate = value.service_period
    ? `${labels.servicePeriod} ${date(value.service_period.start)} – ${date(value.service_period.end)}`
    : value.service_date
      ? `${labels.serviceDate} ${date(value.service_date)}`
      : value.kind === 'invoice'
        ? labels.serviceDateIsIssueDate
        : null;

  const parts = discountParts(value);
  const taxGroups = value.tax_breakdown.map((group, i) => {
    const category = group.category === 'S' ? '' : ` (${group.category})`;
    const part = parts[i] ? `, ${labels.discount} ${money(-parts[i]!)}` : '';
    return { label: `${labels.tax} ${percent(group.rate)}${category} ${labels.taxableAmount} ${money(group.taxable_amount)}${part}`, amount: money(group.tax_amount) };
  });

  const payable = value.kind === 'invoice';
  const iban = compact(issuer.iban);
  const payment = payable
    ? [
      ...labelled(labels.iban, iban),
      ...labelled(labels.bic, compact(issuer.bic)),
      ...(iban ? [`${labels.paymentReference} ${value.number}`] : []),
      ...(value.due_date && value.amount_due > 0 ? [labels.payBy(money(value.amount_due), date(value.due_date))] : []),
    ]
    : null;

  const q = value.kind === 'quote' ? quoteLabels(locale) : null;
  return {
    kind: value.kind,
    number: value.state.unnumbered ? labels.draft : value.number,
    banner: value.state.banner,
    bannerText: value.state.banner_text,
    issuer: { name: issuer.trading_name ?? issuerName, legal_name: issuerName, email: issuer.email },
    billTo: { name: billTo.name, company: billTo.company, email: billTo.email },
    seller,
    buyer,
    issueDate: date(value.issue_date),
    dueDate: value.due_date ? date(value.due_date) : '',
    serviceDate,
    references: [...labelled(labels.buyerReference, value.buyer_reference), ...labelled(labels.purchaseOrder, value.purchase_order)],
    currency: value.currency,
    lines: value.lines.map((line) => ({
      description: line.description,
      quantity: number.format(line.quantity),
      unitPrice: money(line.unit_amount),
      taxRate: percent(line.tax_rate),
      // Rounded per tax group, a line has no tax of its own (§15).
      tax: value.tax_rounding === 'group' || line.tax === null || line.tax === undefined ? '—' : money(line.tax),
      amount: money(line.amount),
      discount: line.discount_amount
        ? `${money(line.amount + line.discount_amount)} ${labels.beforeDiscount}, ${labels.discount} ${number.format(line.discount_percent)} % = ${money(-line.discount_amount)}`
        : null,
    })),
    subtotal: money(value.subtotal),
    discount: value.discount_total ? money(-value.discount_total) : null,
    discountLabel: value.discount?.reason ? `${labels.discount} (${value.discount.reason})` : labels.discount,
    netAfterDiscount: value.discount_total ? money(value.subtotal - value.discount_total) : null,
    taxGroups,
    tax: money(value.tax),
    total: money(value.total),
    amountPaid: money(value.state.paid),
    credited: value.state.credited ? money(-value.state.credited) : null,
    amountDue: money(Math.max(0, value.amount_due)),
    // Each group's note, with its VATEX code when it has one (BT-121), as the XML carries both.
    taxNotes: [...new Set(value.tax_breakdown.map((group) => [group.note, group.exemption_code && `(${group.exemption_code})`].filter(Boolean).join(' ')).filter(Boolean))],
    notes: value.notes,
    paymentInstructions: value.payment_instructions,
    payment: payment && payment.length ? payment : null,
    legalNotes: value.legal_notes,
    locale,
    labels,
    hostedUrl: value.state.hosted_url,
    pdfUrl: value.state.pdf_url,
    ...(value.kind === 'credit_note' && value.preceding_invoice
      ? { credit: { title: labels.creditNote, corrects: labels.corrects(value.preceding_invoice.number) }, payable: false }
      : {}),
    ...(q ? { payable: false, title: q.quoteFrom(value.number, issuerName) } : {}),
  };
}
