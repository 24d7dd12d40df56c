// An invoice as clients see it: stored columns plus what is derived from them and never stored
// (amount_due, overdue, available_actions).
import type { z } from '@hono/zod-openapi';
import type { invoices } from '../../db/schema';
import type { InvoiceAction } from './schemas';
import { serviceOf } from '../documents/schemas';
import type { LocalizedText } from '../documents/localized-text';
import { type LineRow, parseBreakdown, serializeLine } from './lines';
import { shownNumber } from './numbering';

export type InvoiceRow = typeof invoices.$inferSelect;

type Address = { line1: string | null; line2: string | null; city: string | null; region: string | null; postal_code: string | null; country: string | null };
/** Who bills, as it was when the invoice was sent. The §15 ids are absent from snapshots taken before they existed. */
export type IssuerSnapshot = {
  name: string; legal_name: string | null; email: string | null; address: Address; tax_id: string | null;
  vat_id?: string | null; registration_id?: string | null; peppol_id?: string | null; iban?: string | null; bic?: string | null; legal_notes?: LocalizedText | null;
};
/** Who pays, as the client was when the invoice was sent. */
export type BillToSnapshot = {
  name: string; email: string | null; company: string | null; address: Address; tax_id: string | null;
  vat_id?: string | null; peppol_id?: string | null; buyer_reference?: string | null;
};
type InvoiceActionValue = z.infer<typeof InvoiceAction>;

/** What is still to pay (§17): total − credited − paid, never below 0. */
export const amountDue = (row: Pick<InvoiceRow, 'total' | 'creditedAmount' | 'amountPaid'>) => Math.max(0, row.total - row.creditedAmount - row.amountPaid);

/** Open and due before `today`, which is the workspace's today (its time zone). */
export const isOverdue = (row: InvoiceRow, today: string) => row.status === 'open' && row.dueDate < today;

/** What the invoice's state allows now; the action handlers enforce the very same rules in SQL. */
export function availableActions(row: InvoiceRow): InvoiceActionValue[] {
  switch (row.status) {
    case 'draft':
      return ['update', 'delete', 'send'];
    case 'open':
      // A credited invoice is corrected, never voided (§17).
      return row.amountPaid === 0 && row.creditedAmount === 0 ? ['record_payment', 'void'] : ['record_payment'];
    default:
      return [];
  }
}

export function serializeInvoiceSummary(row: InvoiceRow, today: string) {
  return {
    id: row.id,
    // null while a draft has no number yet (§20; numbering.ts).
    number: shownNumber(row),
    status: row.status,
    overdue: isOverdue(row, today),
    client_id: row.clientId,
    project_id: row.projectId,
    currency: row.currency,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    subtotal: invoiceSubtotal(row),
    discount: row.discount ? (JSON.parse(row.discount) as { percent: number | null; amount: number | null; reason: string | null }) : null,
    discount_total: row.discountTotal,
    tax: row.tax,
    total: row.total,
    tax_rounding: row.taxRounding,
    tax_breakdown: parseBreakdown(row.taxBreakdown),
    tax_exemption_reason: row.taxExemptionReason,
    tax_exemption_code: row.taxExemptionCode,
    buyer_reference: row.buyerReference,
    purchase_order: row.purchaseOrder,
    ...serviceOf(row),
    amount_paid: row.amountPaid,
    amount_due: amountDue(row),
    credited_amount: row.creditedAmount,
    credit_note_ids: row.creditNoteIds ? (JSON.parse(row.creditNoteIds) as string[]) : [],
    overpaid_amount: row.overpaidAmount,
    notes: row.notes,
    locale: row.locale,
    available_actions: availableActions(row),
    issuer: row.issuer ? (JSON.parse(row.issuer) as IssuerSnapshot) : null,
    bill_to: row.billTo ? (JSON.parse(row.billTo) as BillToSnapshot) : null,
    // Filled in by the routes, which know the request's origin (links.ts); never stored or put in an
    // event, since the link's token is a secret of the invoice's recipient.
    recurring_invoice_id: row.recurringInvoiceId,
    quote_id: row.quoteId,
    hosted_url: null as string | null,
    pdf_url: null as string | null,
    sent_at: row.sentAt,
    viewed_at: row.viewedAt,
    paid_at: row.paidAt,
    voided_at: row.voidedAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** Σ line amount: the stored column is what is taxed, after the document discount (db/schema/invoices.ts). */
export const invoiceSubtotal = (row: Pick<InvoiceRow, 'taxableAmount' | 'discountTotal'>) => row.taxableAmount + row.discountTotal;

export function serializeInvoice(row: InvoiceRow, lines: LineRow[], today: string) {
  return { ...serializeInvoiceSummary(row, today), line_items: lines.map((line) => serializeLine(line, row.taxRounding)) };
}

/** An invoice with its lines, as read or as a change leaves it. */
export type InvoiceWithLines = { row: InvoiceRow; lines: LineRow[] };

