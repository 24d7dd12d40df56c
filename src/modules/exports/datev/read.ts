// What the DATEV export reads of each kind of record in a period, a page at a time (pages.ts).
import type { WorkspaceContext } from '../../../lib/context';
import { addDays } from '../../../lib/time';
import { keyset, type Period, walk } from '../pages';
import type { DocumentRecord, ExpenseRecord, MoneyRecord, TaxGroup } from './records';

export type { Period };

const parseGroups = (json: unknown): TaxGroup[] | null => (typeof json === 'string' ? (JSON.parse(json) as TaxGroup[]) : null);

// The parties as the invoice was sent with them (its snapshots, §10).
const PARTIES = `coalesce(json_extract(i.bill_to, '$.company'), json_extract(i.bill_to, '$.name'), ''),
  json_extract(i.bill_to, '$.address.country'), json_extract(i.bill_to, '$.vat_id'),
  json_extract(i.issuer, '$.address.country'), coalesce(json_extract(i.issuer, '$.small_business'), 0)`;

const parties = (r: unknown[], at: number) => ({
  clientName: String(r[at] ?? ''),
  buyerCountry: (r[at + 1] as string | null) ?? null,
  buyerVatId: (r[at + 2] as string | null) ?? null,
  issuerCountry: (r[at + 3] as string | null) ?? null,
  smallBusiness: Boolean(r[at + 4]),
});

const INVOICES = `SELECT i.issue_date, i.id, i.number, i.currency, i.subtotal, i.tax, i.tax_breakdown, ${PARTIES}
  FROM invoices i WHERE i.workspace_id = ?1 AND ${keyset('i.issue_date', 'i.id')} AND i.status <> 'draft'
  ORDER BY i.issue_date, i.id LIMIT ?6`;

/** Invoices issued in the period: every one sent, a voided one too (its reversal is dated by its void). */
export async function* invoicesIn(ctx: WorkspaceContext, period: Period): AsyncGenerator<DocumentRecord[]> {
  for await (const rows of walk(ctx, INVOICES, period)) {
    yield rows.map((r) => ({
      date: r[0] as string, id: r[1] as string, number: r[2] as string, invoiceNumber: null, currency: r[3] as string,
      taxableAmount: r[4] as number, tax: r[5] as number, breakdown: parseGroups(r[6]), ...parties(r, 7),
    }));
  }
}

// A void is an instant; its day is the workspace's (`date(voided_at, offset)` would need the zone's rules, so
// the day is worked out here). The query takes a day either side of the period and the rows are filtered.
const VOIDS = `SELECT i.voided_at, i.id, i.number, i.currency, i.subtotal, i.tax, i.tax_breakdown, ${PARTIES}
  FROM invoices i WHERE i.workspace_id = ?1 AND i.status = 'void' AND ${keyset('i.voided_at', 'i.id')}
  ORDER BY i.voided_at, i.id LIMIT ?6`;

/** Invoices voided in the period, dated by the day of their void in the workspace's time zone. */
export async function* voidsIn(ctx: WorkspaceContext, period: Period, dayOf: (instant: string) => string): AsyncGenerator<DocumentRecord[]> {
  const wide = { from: addDays(period.from, -1), to: `${addDays(period.to, 1)}T23:59:59.999Z` };
  for await (const rows of walk(ctx, VOIDS, wide)) {
    const voided = rows
      .map((r) => ({
        date: dayOf(r[0] as string), id: r[1] as string, number: r[2] as string, invoiceNumber: null, currency: r[3] as string,
        taxableAmount: r[4] as number, tax: r[5] as number, breakdown: parseGroups(r[6]), ...parties(r, 7),
      }))
      .filter((d) => d.date >= period.from && d.date <= period.to);
    if (voided.length) yield voided;
  }
}

const CREDIT_NOTES = `SELECT c.issue_date, c.id, c.number, i.number, c.currency, c.subtotal - c.discount_total, c.tax, c.tax_breakdown, ${PARTIES}
  FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id
  WHERE c.workspace_id = ?1 AND ${keyset('c.issue_date', 'c.id')} ORDER BY c.issue_date, c.id LIMIT ?6`;

export async function* creditNotesIn(ctx: WorkspaceContext, period: Period): AsyncGenerator<DocumentRecord[]> {
  for await (const rows of walk(ctx, CREDIT_NOTES, period)) {
    yield rows.map((r) => ({
      date: r[0] as string, id: r[1] as string, number: r[2] as string, invoiceNumber: r[3] as string, currency: r[4] as string,
      taxableAmount: r[5] as number, tax: r[6] as number, breakdown: parseGroups(r[7]), ...parties(r, 8),
    }));
  }
}

const CLIENT = `coalesce(json_extract(i.bill_to, '$.company'), json_extract(i.bill_to, '$.name'), '')`;

const PAYMENTS = `SELECT p.paid_on, p.id, p.amount, p.currency, i.number, ${CLIENT}
  FROM payments p JOIN invoices i ON i.id = p.invoice_id
  WHERE p.workspace_id = ?1 AND ${keyset('p.paid_on', 'p.id')} ORDER BY p.paid_on, p.id LIMIT ?6`;

// A refund counts unless it failed (a pending one already lowered what was paid, §16).
const REFUNDS = `SELECT r.refunded_on, r.id, r.amount, r.currency, i.number, ${CLIENT}
  FROM refunds r JOIN invoices i ON i.id = r.invoice_id
  WHERE r.workspace_id = ?1 AND ${keyset('r.refunded_on', 'r.id')} AND r.status <> 'failed' ORDER BY r.refunded_on, r.id LIMIT ?6`;

const money = (r: unknown[]): MoneyRecord => ({
  date: r[0] as string, id: r[1] as string, amount: r[2] as number, currency: r[3] as string, invoiceNumber: r[4] as string, clientName: String(r[5] ?? ''),
});

export async function* paymentsIn(ctx: WorkspaceContext, period: Period): AsyncGenerator<MoneyRecord[]> {
  for await (const rows of walk(ctx, PAYMENTS, period)) yield rows.map(money);
}

export async function* refundsIn(ctx: WorkspaceContext, period: Period): AsyncGenerator<MoneyRecord[]> {
  for await (const rows of walk(ctx, REFUNDS, period)) yield rows.map(money);
}

const EXPENSES = `SELECT e.incurred_on, e.id, e.amount, e.currency, e.category, e.vendor, e.description, e.reference, e.tax_breakdown
  FROM expenses e WHERE e.workspace_id = ?1 AND ${keyset('e.incurred_on', 'e.id')} ORDER BY e.incurred_on, e.id LIMIT ?6`;

export async function* expensesIn(ctx: WorkspaceContext, period: Period): AsyncGenerator<ExpenseRecord[]> {
  for await (const rows of walk(ctx, EXPENSES, period)) {
    yield rows.map((r) => ({
      date: r[0] as string, id: r[1] as string, amount: r[2] as number, currency: r[3] as string, category: r[4] as string,
      vendor: (r[5] as string | null) ?? null, description: (r[6] as string | null) ?? null, reference: (r[7] as string | null) ?? null,
      breakdown: parseGroups(r[8]),
    }));
  }
}
