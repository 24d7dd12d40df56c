// A quote as clients see it: stored columns plus what is derived from them (available_actions).
// Its lines are stored on it as rows of the invoice lines' shape, so they serialize as invoice lines do.
import { serviceOf } from '../documents/schemas';
import type { z } from '@hono/zod-openapi';
import type { quotes } from '../../db/schema';
import { type LineRow, parseBreakdown, serializeLine } from '../invoices/lines';
import { shownNumber } from '../invoices/numbering';
import type { BillToSnapshot, IssuerSnapshot } from '../invoices/serialize';
import type { QuoteAction } from './schemas';

export type QuoteRow = typeof quotes.$inferSelect;
export type QuoteStatusValue = QuoteRow['status'];

/** Accepted: who, with which PO, how and when; where from (address, user agent) is kept but not shown. */
export type Acceptance = { name: string; po_number: string | null; method: string; at: string; ip?: string | null; user_agent?: string | null };
export type Declination = { reason: string; at: string; ip?: string | null; user_agent?: string | null };

/** A quote's lines as stored (JSON): the invoice line row without its invoice. */
export const parseLines = (row: Pick<QuoteRow, 'id' | 'lineItems'>): LineRow[] =>
  (JSON.parse(row.lineItems) as Omit<LineRow, 'invoiceId'>[]).map((line) => ({ ...line, invoiceId: row.id }));

export const storedLines = (lines: LineRow[]) => JSON.stringify(lines.map(({ invoiceId: _, ...line }) => line));

/** What the quote's state allows now; the actions enforce the very same rules in SQL. */
export function availableActions(row: QuoteRow): z.infer<typeof QuoteAction>[] {
  switch (row.status) {
    case 'draft':
      return ['update', 'delete', 'send', 'cancel'];
    case 'open':
      return ['accept', 'decline', 'cancel', 'revise'];
    case 'accepted':
      return ['convert'];
    case 'declined':
    case 'expired':
      return ['revise'];
    default:
      return [];
  }
}

export function serializeQuoteSummary(row: QuoteRow) {
  const accepted = row.accepted ? (JSON.parse(row.accepted) as Acceptance) : null;
  const declined = row.declined ? (JSON.parse(row.declined) as Declination) : null;
  return {
    id: row.id,
    // null while a draft has no number yet (§20; invoices/numbering.ts).
    number: shownNumber(row),
    status: row.status,
    client_id: row.clientId,
    project_id: row.projectId,
    currency: row.currency,
    issue_date: row.issueDate,
    valid_until: row.validUntil,
    subtotal: row.taxableAmount + row.discountTotal,
    discount: row.discount ? (JSON.parse(row.discount) as { percent: number | null; amount: number | null; reason: string | null }) : null,
    discount_total: row.discountTotal,
    tax: row.tax,
    total: row.total,
    tax_rounding: row.taxRounding,
    tax_breakdown: parseBreakdown(row.taxBreakdown),
    tax_exemption_reason: row.taxExemptionReason,
    tax_exemption_code: row.taxExemptionCode,
    notes: row.notes,
    ...serviceOf(row),
    locale: row.locale,
    terms: row.terms,
    on_accept: row.onAccept,
    issuer: row.issuer ? (JSON.parse(row.issuer) as IssuerSnapshot) : null,
    bill_to: row.billTo ? (JSON.parse(row.billTo) as BillToSnapshot) : null,
    // Filled in by the routes, which know the request's origin; never stored or put in an event.
    hosted_url: null as string | null,
    pdf_url: null as string | null,
    accepted: accepted && { name: accepted.name, po_number: accepted.po_number, method: accepted.method as 'email', at: accepted.at },
    declined: declined && { reason: declined.reason, at: declined.at },
    invoice_id: row.invoiceId,
    revision_of: row.revisionOf,
    available_actions: availableActions(row),
    sent_at: row.sentAt,
    viewed_at: row.viewedAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function serializeQuote(row: QuoteRow) {
  return { ...serializeQuoteSummary(row), line_items: parseLines(row).map((line) => serializeLine(line, row.taxRounding)) };
}
