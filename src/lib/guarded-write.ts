// The pieces of a guarded batch. D1 has no interactive transactions: a change that depends on
// what was read is written under a guard (a status, an updated_at, a NOT EXISTS) in one batch
// with everything that follows from it, each later statement conditional on the guard having
// held. A guard that matched nothing means another request won: the caller reads again and
// retries (retryOnRace), or explains why not.
import { getTableColumns, SQL, type SQLChunk, sql, StringChunk } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { ApiError } from '../errors';
import type { Db } from './db';

const ATTEMPTS = 3;

/** Rows the statement changed, from a D1 result in a batch's results. */
export const changedRows = (result: unknown): number => (result as { meta: { changes: number } }).meta.changes;

/** Runs `attempt` until it returns a value (not undefined); undefined means "lost a race, again". */
export async function retryOnRace<T>(what: string, attempt: () => Promise<T | undefined>, attempts = ATTEMPTS): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
  }
  throw new ApiError('conflict', `The ${what} was changed by another request at the same time; try again.`);
}

/**
 * INSERT of `row` into `table` that writes nothing unless `condition` holds when the statement
 * runs, for a batch: `changes() > 0` (the statement before it changed a row), an EXISTS on what
 * the batch wrote, a NOT EXISTS for a uniqueness rule. The values go in the table's column order,
 * which is the order drizzle lists the columns of an INSERT … SELECT in.
 */
export function insertIf<T extends SQLiteTable>(db: Db, table: T, row: T['$inferInsert'], condition: SQL) {
  // A column the row leaves out takes its schema default, as in a plain INSERT.
  const values = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const value = (row as Record<string, unknown>)[key];
    return value !== undefined ? value : (column.default ?? null);
  });
  return db.insert(table).select(sql`SELECT ${flatList(values)} WHERE ${condition}`);
}

const COMMA = new StringChunk(', ');

/**
 * `a, b, c` of values as parameters (SQL fragments as themselves), as sql.join of sql`${value}`
 * would write it, but in one flat fragment: drizzle renders each nested fragment with a call of its
 * own, and an invoice's 50 columns nested so were much of a create's CPU.
 */
export function flatList(values: unknown[]): SQL {
  return new SQL(values.flatMap((value, i) => (i ? [COMMA, value] : [value])) as SQLChunk[]);
}

/** The condition "the statement just before this one in the batch changed a row". */
export const previousChanged = sql`changes() > 0`;
