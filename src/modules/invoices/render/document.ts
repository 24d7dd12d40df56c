// The invoice as a document for people: one value, built from the invoice's snapshot, that the
// hosted page, the PDF and the email all render, so the three never disagree. Every amount is
// formatted here, once, by money.ts in the workspace's locale with the currency's own minor unit.
import { formatMoney, fromScaledInteger } from '../../../lib/money';
import type { LineRow } from '../lines';
import { type BillToSnapshot, invoiceSubtotal, type InvoiceRow, type IssuerSnapshot, isOverdue } from '../serialize';

export type DocumentLine = { description: string; quantity: string; unitPrice: string; taxRate: string; tax: string; amount: string };

export type InvoiceDocument = {
  number: string;
  status: InvoiceRow['status'];
  /** PAID, VOID, Overdue or DRAFT: what the banner says, if anything. */
  banner: string | null;
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
  amountDue: string;
  notes: string | null;
  paymentInstructions: string | null;
  locale: string;
  hostedUrl: string | null;
  pdfUrl: string | null;
};

type Workspace = { name: string; locale: string; paymentInstructions: string | null };

const EMPTY_ADDRESS = { line1: null, line2: null, city: null, region: null, postal_code: null, country: null };

/** Formats a calendar date (YYYY-MM-DD) for the locale, as the date it is, whatever the time zone. */
export function formatDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

function banner(row: InvoiceRow, today: string): string | null {
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
  today: string;
  links?: { hosted_url: string | null; pdf_url: string | null };
}): InvoiceDocument {
  const { row, lines, workspace, today } = input;
  const locale = workspace.locale;
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
    banner: banner(row, today),
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
    amountDue: money(row.total - row.amountPaid),
    notes: row.notes,
    paymentInstructions: workspace.paymentInstructions,
    locale,
    hostedUrl: input.links?.hosted_url ?? null,
    pdfUrl: input.links?.pdf_url ?? null,
  };
}

/** The lines of an address that are filled in, for printing. */
export function addressLines(address: IssuerSnapshot['address']): string[] {
  const cityLine = [address.postal_code, address.city, address.region].filter(Boolean).join(' ');
  return [address.line1, address.line2, cityLine, address.country].filter((part): part is string => Boolean(part));
}
