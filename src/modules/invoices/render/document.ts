// The invoice as a document for people: one value, built from the invoice's snapshot, that the
// hosted page, the PDF and the email all render, so the three never disagree. Every amount is
// formatted here, once, by money.ts in the invoice's locale with the currency's own minor unit, and
// every label comes in that locale's language. A sent invoice uses the locale and payment
// instructions it was sent with; a draft, the workspace's as they are now.
import { formatMoney, fromScaledInteger } from '../../../lib/money';
import { type InvoiceLabels, invoiceLabels } from '../../documents/labels/invoice';
import type { LineRow } from '../lines';
import { amountDue, type BillToSnapshot, invoiceSubtotal, type InvoiceRow, type IssuerSnapshot, isOverdue } from '../serialize';

export type DocumentLine = { description: string; quantity: string; unitPrice: string; taxRate: string; tax: string; amount: string };

export type InvoiceDocument = {
  number: string;
  status: InvoiceRow['status'];
  /** PAID, VOID, Overdue or DRAFT: which banner it shows, if any. */
  banner: Banner | null;
  /** What that banner says, in the document's language. */
  bannerText: string | null;
  issuer: IssuerSnapshot;
  billTo: BillToSnapshot;
  issueDate: string;
  dueDate: string;
  currency: string;
  lines: DocumentLine[];
  subtotal: string;
  /** The document discount taken off the subtotal, formatted as a negative amount; null when there is none. */
  discount: string | null;
  tax: string;
  total: string;
  amountPaid: string;
  /** What credit notes took off the total (§17), as a negative amount; null when nothing is credited. */
  credited?: string | null;
  amountDue: string;
  notes: string | null;
  paymentInstructions: string | null;
  locale: string;
  labels: InvoiceLabels;
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

type Workspace = { name: string; locale: string; paymentInstructions: string | null };

const EMPTY_ADDRESS = { line1: null, line2: null, city: null, region: null, postal_code: null, country: null };

/** Formats a calendar date (YYYY-MM-DD) for the locale, as the date it is, whatever the time zone. */
export function formatDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

type Banner = 'PAID' | 'VOID' | 'Overdue' | 'DRAFT';

function banner(row: InvoiceRow, today: string): Banner | null {
  if (row.status === 'paid') return 'PAID';
  if (row.status === 'void') return 'VOID';
  if (row.status === 'draft') return 'DRAFT';
  return isOverdue(row, today) ? 'Overdue' : null;
}

export function invoiceDocument(input: {
  row: InvoiceRow;
  lines: LineRow[];
  workspace: Workspace;
  /** The client as it is now: only a draft, which has no snapshot yet, is shown with it. */
  draftBillTo?: BillToSnapshot;
  /** A draft's language when it has none of its own: its client's (§20), else the workspace's. */
  draftLocale?: string | null;
  today: string;
  links?: { hosted_url: string | null; pdf_url: string | null };
}): InvoiceDocument {
  const { row, lines, workspace, today } = input;
  // Snapshotted together at send (a sent invoice's locale is never null; see the migration for older ones);
  // a draft's is its own when it was given one.
  const sent = row.status !== 'draft';
  const locale = row.locale ?? input.draftLocale ?? workspace.locale;
  const labels = invoiceLabels(locale);
  const shown = banner(row, today);
  const money = (amount: number) => formatMoney(amount, row.currency, locale);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const issuer: IssuerSnapshot = row.issuer
    ? (JSON.parse(row.issuer) as IssuerSnapshot)
    : { name: workspace.name, legal_name: null, email: null, address: EMPTY_ADDRESS, tax_id: null };
  const billTo: BillToSnapshot = row.billTo
    ? (JSON.parse(row.billTo) as BillToSnapshot)
    : (input.draftBillTo ?? { name: '', email: null, company: null, address: EMPTY_ADDRESS, tax_id: null });
  return {
    number: row.number,
    status: row.status,
    banner: shown,
    bannerText: shown && { PAID: labels.bannerPaid, VOID: labels.bannerVoid, Overdue: labels.bannerOverdue, DRAFT: labels.draft }[shown],
    issuer,
    billTo,
    issueDate: formatDate(row.issueDate, locale),
    dueDate: formatDate(row.dueDate, locale),
    currency: row.currency,
    lines: lines.map((line) => ({
      description: line.description,
      quantity: number.format(fromScaledInteger(line.quantityMilli, 3)),
      unitPrice: money(line.unitAmount),
      taxRate: `${number.format(fromScaledInteger(line.taxRateMilli, 3))} %`,
      // Rounded per tax group, a line has no tax of its own (§15).
      tax: row.taxRounding === 'group' ? '—' : money(line.tax),
      amount: money(line.amount),
    })),
    subtotal: money(invoiceSubtotal(row)),
    discount: row.discountTotal ? money(-row.discountTotal) : null,
    tax: money(row.tax),
    total: money(row.total),
    amountPaid: money(row.amountPaid),
    credited: row.creditedAmount ? money(-row.creditedAmount) : null,
    amountDue: money(amountDue(row)),
    notes: row.notes,
    paymentInstructions: sent ? row.paymentInstructions : workspace.paymentInstructions,
    locale,
    labels,
    hostedUrl: input.links?.hosted_url ?? null,
    pdfUrl: input.links?.pdf_url ?? null,
  };
}
