// Line items: from the request's decimals to exact integers (thousandths of a unit, thousandths of
// a percent), their figures by the contract's rounding, and their rows.
import { type SQL, sql } from 'drizzle-orm';
import { invoiceLineItems } from '../../db/schema';
import type { Db } from '../../lib/db';
import { fromScaledInteger, invoiceTotals, lineFigures, toScaledInteger } from '../../lib/money';
import { newId } from '../../lib/ids';
import type { LineItemInputValue } from './schemas';

export type LineRow = typeof invoiceLineItems.$inferSelect;

/** Rows for an invoice's lines and the invoice's totals, computed once, here. */
export function buildLines(invoiceId: string, inputs: LineItemInputValue[]) {
  const rows: LineRow[] = inputs.map((input, position) => {
    // The schema has already refused more than 3 decimals, so these are exact.
    const quantityMilli = toScaledInteger(input.quantity, 3)!;
    const taxRateMilli = toScaledInteger(input.tax_rate, 3)!;
    const { amount, tax } = lineFigures({ quantityMilli, unitAmount: input.unit_amount, taxRateMilli });
    return {
      id: newId('lineItem'),
      invoiceId,
      position,
      description: input.description,
      quantityMilli,
      unitAmount: input.unit_amount,
      taxRateMilli,
      amount,
      tax,
    };
  });
  return { rows, totals: invoiceTotals(rows) };
}

export const serializeLine = (row: LineRow) => ({
  id: row.id,
  description: row.description,
  quantity: fromScaledInteger(row.quantityMilli, 3),
  unit_amount: row.unitAmount,
  tax_rate: fromScaledInteger(row.taxRateMilli, 3),
  amount: row.amount,
  tax: row.tax,
});

// D1 allows 100 bound parameters per statement; a line has 9 columns, plus one for the guard.
const LINES_PER_STATEMENT = 10;

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
    const values = sql.join(
      chunk.map((r) => sql`(${r.id}, ${r.invoiceId}, ${r.position}, ${r.description}, ${r.quantityMilli}, ${r.unitAmount}, ${r.taxRateMilli}, ${r.amount}, ${r.tax})`),
      sql`, `,
    );
    statements.push(db.insert(invoiceLineItems).select(sql`SELECT * FROM (VALUES ${values}) WHERE ${onlyIf}`));
  }
  return statements;
}
