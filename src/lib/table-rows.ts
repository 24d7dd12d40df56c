// Whole rows of a table from D1's raw() arrays, mapped as drizzle maps them: each column's own
// mapFromDriverValue, null kept as null. drizzle's general mapper also checks every cell's kind and
// walks nested selections, which was a quarter of an invoice list's CPU (26 rows of 45 columns);
// a list that selects whole rows with a statement shape (lib/statement-shape.ts) maps them here.
import { getTableColumns, type InferSelectModel, type Table } from 'drizzle-orm';

/** A mapper for rows of `table` selected whole (`select()` with no fields: the columns in table order). */
export function tableRows<T extends Table>(table: T): (raw: unknown[][]) => InferSelectModel<T>[] {
  const columns = Object.entries(getTableColumns(table));
  return (raw) =>
    raw.map((values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) {
        const [key, column] = columns[i]!;
        const value = values[i];
        row[key] = value === null ? null : column.mapFromDriverValue(value);
      }
      return row as InferSelectModel<T>;
    });
}
