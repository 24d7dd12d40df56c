// Line items: from the request's decimals to exact integers (thousandths of a unit, thousandths of
// a percent), their figures and the invoice's totals by the one tax engine (documents/totals.ts),
// and their rows.
import { type SQL, sql } from 'drizzle-orm';
import { invoiceLineItems } from '../../db/schema';
import type { Db } from '../../lib/db';
import { flatList } from '../../lib/guarded-write';
import { type DocumentLineInput, type DocumentTotals, documentTotals, type TaxBreakdownEntry, type TaxRounding } from '../documents/totals';
import { type TaxDefaults, withTaxDefaults } from '../documents/tax-treatment';
import { fromScaledInteger, toScaledInteger } from '../../lib/money';
import { newId } from '../../lib/ids';
import { DEFAULT_UNIT } from '../../lib/units';
import { type DiscountInputValue, discountRecord, type LineItemInputValue } from './schemas';

export type LineRow = typeof invoiceLineItems.$inferSelect;

/** What a document's amounts are computed from, as a request (or a recurring template) gives it. */
export type DocumentContent = {
  line_items: LineItemInputValue[];
  discount?: DiscountInputValue | null;
  tax_exemption_reason?: string | null;
  tax_exemption_code?: string | null;
};

/**
 * What the workspace decides: the invoice's rounding mode, whether its issuer has a VAT id (default
 * categories), and what lines that name no tax take (the client's treatment, a small business's E, §20).
 */
export type DocumentSettings = { taxRounding: TaxRounding; issuerHasVatId: boolean; taxDefaults?: TaxDefaults };

/** The invoice columns its lines decide. */
export type DocumentColumns = {
  taxableAmount: number; tax: number; total: number; discountTotal: number; discount: string | null; taxBreakdown: string;
  taxExemptionReason: string | null; taxExemptionCode: string | null;
};

/** The engine's answer for a document's content (a 422 naming the field when it breaks a rule of §15). */
export function computeDocument(content: DocumentContent, settings: DocumentSettings): DocumentTotals {
  return documentTotals({
    lines: withTaxDefaults(content.line_items, settings.taxDefaults).map((l) => ({ quantity: l.quantity, unit_amount: l.unit_amount, discount_percent: l.discount_percent, tax_category: l.tax_category, tax_rate: l.tax_rate ?? 0 })),
    discount: content.discount ?? null,
    tax_rounding: settings.taxRounding,
    issuer_has_vat_id: settings.issuerHasVatId,
    tax_exemption_reason: content.tax_exemption_reason ?? null,
    tax_exemption_code: content.tax_exemption_code ?? null,
    exemption_defaults: settings.taxDefaults?.exemptionReasons,
  });
}

export function documentColumns(content: DocumentContent, figures: DocumentTotals): DocumentColumns {
  const d = content.discount;
  return {
    taxableAmount: figures.subtotal - figures.discount_total,
    tax: figures.tax,
    total: figures.total,
    discountTotal: figures.discount_total,
    discount: d ? JSON.stringify(discountRecord(d)) : null,
    taxBreakdown: JSON.stringify(figures.tax_breakdown),
    taxExemptionReason: content.tax_exemption_reason ?? null,
    taxExemptionCode: content.tax_exemption_code ?? null,
  };
}

/** Rows for an invoice's lines and the invoice's columns, computed once, here. */
export function buildLines(invoiceId: string, content: DocumentContent, settings: DocumentSettings) {
  const figures = computeDocument(content, settings);
  const rows: LineRow[] = content.line_items.map((input, position) => {
    const line = figures.lines[position]!;
    // The schema has already refused more than 3 decimals, so these are exact.
    return {
      id: newId('lineItem'),
      invoiceId,
      position,
      description: input.description,
      quantityMilli: toScaledInteger(input.quantity, 3)!,
      unitAmount: input.unit_amount,
      taxRateMilli: toScaledInteger(line.tax_rate, 3)!,
      amount: line.amount,
      tax: line.tax ?? 0,
      unit: input.unit ?? DEFAULT_UNIT,
      discountPercentMilli: toScaledInteger(line.discount_percent, 3)!,
      discountAmount: line.discount_amount,
      taxCategory: line.tax_category,
    };
  });
  return { rows, columns: documentColumns(content, figures), figures };
}

/** A stored line as the engine's input again (its category as resolved when it was written). */
export const lineInputOf = (row: LineRow): LineItemInputValue & DocumentLineInput => ({
  description: row.description,
  quantity: fromScaledInteger(row.quantityMilli, 3),
  unit: row.unit as LineItemInputValue['unit'],
  unit_amount: row.unitAmount,
  discount_percent: fromScaledInteger(row.discountPercentMilli, 3),
  tax_category: row.taxCategory,
  tax_rate: fromScaledInteger(row.taxRateMilli, 3),
});

/** A line as the API returns it; `tax` is null when its invoice rounds tax per group. */
export const serializeLine = (row: LineRow, taxRounding: TaxRounding = 'line') => ({
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
});

/**
 * A stored invoice as the engine's answer (documents/totals.ts `DocumentTotals`), read from what
 * was stored, never recomputed: the value the e-invoice writers, the PDF and the page render, so an
 * invoice reads as it was issued whatever the engine later becomes.
 */
export function storedDocumentTotals(row: InvoiceColumnsForTotals, lines: LineRow[]): DocumentTotals {
  const discount = row.discount ? (JSON.parse(row.discount) as { percent: number | null; amount: number | null; reason: string | null }) : null;
  return {
    lines: lines.map((line) => ({
      quantity: fromScaledInteger(line.quantityMilli, 3),
      unit_amount: line.unitAmount,
      gross: line.amount + line.discountAmount,
      discount_percent: fromScaledInteger(line.discountPercentMilli, 3),
      discount_amount: line.discountAmount,
      amount: line.amount,
      tax_category: line.taxCategory,
      tax_rate: fromScaledInteger(line.taxRateMilli, 3),
      tax: row.taxRounding === 'group' ? null : line.tax,
    })),
    subtotal: row.taxableAmount + row.discountTotal,
    discount: discount ? { percent: discount.percent, amount: row.discountTotal, reason: discount.reason } : null,
    discount_total: row.discountTotal,
    tax: row.tax,
    total: row.total,
    tax_rounding: row.taxRounding,
    tax_breakdown: parseBreakdown(row.taxBreakdown),
  };
}

type InvoiceColumnsForTotals = {
  taxableAmount: number; discountTotal: number; discount: string | null; tax: number; total: number; taxRounding: TaxRounding; taxBreakdown: string | null;
};

export const parseBreakdown = (json: string | null): TaxBreakdownEntry[] => (json ? (JSON.parse(json) as TaxBreakdownEntry[]) : []);

// D1 allows 100 bound parameters per statement; a line has 13 columns, plus one for the guard.
export const LINES_PER_STATEMENT = 7;

/**
 * INSERT statements for the lines, chunked under D1's parameter limit, for the caller's batch.
 * With `onlyIf`, each statement inserts nothing unless that condition holds when it runs (the
 * invoice was written by this batch), so a batch that lost a race writes no lines.
 */
export function insertLineStatements(db: Db, rows: LineRow[], onlyIf?: SQL) {
  const statements = [];
  for (let i = 0; i < rows.length; i += LINES_PER_STATEMENT) {
    const chunk = rows.slice(i, i + LINES_PER_STATEMENT);
    if (!onlyIf) {
      statements.push(db.insert(invoiceLineItems).values(chunk));
      continue;
    }
    // VALUES in the table's column order, which INSERT … SELECT fills.
    const values = flatList(
      chunk.map((r) => sql`(${r.id}, ${r.invoiceId}, ${r.position}, ${r.description}, ${r.quantityMilli}, ${r.unitAmount}, ${r.taxRateMilli}, ${r.amount}, ${r.tax}, ${r.unit}, ${r.discountPercentMilli}, ${r.discountAmount}, ${r.taxCategory})`),
    );
    statements.push(db.insert(invoiceLineItems).select(sql`SELECT * FROM (VALUES ${values}) WHERE ${onlyIf}`));
  }
  return statements;
}
