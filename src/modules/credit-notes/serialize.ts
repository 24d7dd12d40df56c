// A credit note as the API returns it, and its hosted links (`/c/<token>`), derived like an
// invoice's: an HMAC of its id and link version under the server secret, never stored.
import type { creditNoteLineItems, creditNotes } from '../../db/schema';
import { fromScaledInteger } from '../../lib/money';
import { serverToken } from '../../lib/server-token';
import { parseBreakdown } from '../invoices/lines';
import { linkHash } from '../invoices/links';

export type CreditNoteRow = typeof creditNotes.$inferSelect;
export type CreditNoteLineRow = typeof creditNoteLineItems.$inferSelect;
export type CreditNoteWithLines = { row: CreditNoteRow; lines: CreditNoteLineRow[] };
export type CreditNoteLinks = { hosted_url: string | null; pdf_url: string | null };

const NO_LINKS: CreditNoteLinks = { hosted_url: null, pdf_url: null };

// Its own purpose in the message, so a credit note's token is never an invoice's.
export const creditNoteToken = (env: Env, id: string, version: number) => serverToken(env, `credit-note:${id}:${version}`);
export const creditNoteLinkHash = async (env: Env, id: string, version: number) => linkHash(await creditNoteToken(env, id, version));

export async function creditNoteLinks(env: Env, origin: string, row: Pick<CreditNoteRow, 'id' | 'linkVersion'>): Promise<CreditNoteLinks> {
  const hosted = `${origin}/c/${await creditNoteToken(env, row.id, row.linkVersion)}`;
  return { hosted_url: hosted, pdf_url: `${hosted}/pdf` };
}

export const serializeCreditNoteLine = (row: CreditNoteLineRow, taxRounding: CreditNoteRow['taxRounding']) => ({
  id: row.id,
  description: row.description,
  quantity: fromScaledInteger(row.quantityMilli, 3),
  unit: row.unit,
  unit_amount: row.unitAmount,
  gross: row.amount + row.discountAmount,
  discount_percent: fromScaledInteger(row.discountPercentMilli, 3),
  discount_amount: row.discountAmount,
  amount: row.amount,
  tax_category: row.taxCategory,
  tax_rate: fromScaledInteger(row.taxRateMilli, 3),
  tax: taxRounding === 'group' ? null : row.tax,
  invoice_line_item_id: row.invoiceLineItemId,
});

export function serializeCreditNoteSummary(row: CreditNoteRow, links: CreditNoteLinks = NO_LINKS) {
  return {
    id: row.id,
    number: row.number,
    invoice_id: row.invoiceId,
    client_id: row.clientId,
    status: row.status,
    reason: row.reason,
    memo: row.memo,
    // Never null: set when issued, and filled from the invoice for those issued before (migration language_locale).
    locale: row.locale ?? '',
    issue_date: row.issueDate,
    currency: row.currency,
    subtotal: row.subtotal,
    discount_total: row.discountTotal,
    tax: row.tax,
    total: row.total,
    tax_breakdown: parseBreakdown(row.taxBreakdown),
    pre_payment_amount: row.prePaymentAmount,
    post_payment_amount: row.postPaymentAmount,
    refund_id: row.refundId,
    // Links only in answers to the caller: in events they are null (their token is the client's).
    hosted_url: links.hosted_url,
    pdf_url: links.pdf_url,
    created_at: row.createdAt,
  };
}

export function serializeCreditNote({ row, lines }: CreditNoteWithLines, links: CreditNoteLinks = NO_LINKS) {
  const { hosted_url, pdf_url, created_at, ...head } = serializeCreditNoteSummary(row, links);
  const { subtotal, discount_total, tax, total, tax_breakdown, pre_payment_amount, post_payment_amount, refund_id, ...first } = head;
  return {
    ...first,
    line_items: lines.map((line) => serializeCreditNoteLine(line, row.taxRounding)),
    subtotal, discount_total, tax, total, tax_breakdown, pre_payment_amount, post_payment_amount, refund_id, hosted_url, pdf_url, created_at,
  };
}
