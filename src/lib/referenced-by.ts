// What keeps a record from going: the rows of other tables that name it (a client's invoices, a
// project's time entries). A delete or a move is written under `unreferenced`, in the same
// statement as the change, so a reference created meanwhile cannot slip in between check and
// write; the foreign keys stay behind it as the last line. When the guard held nothing back,
// `referencesOf` names what did, for the 409.
import { and, eq, notExists, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './db';

/** A table whose rows name the record in `column`, and what its rows are called ("time entries"). */
export type Referrer = { what: string; table: SQLiteTable; column: SQLiteColumn };

const rowsNaming = (db: Db, referrer: Referrer, id: string) =>
  db.select({ one: sql`1` }).from(referrer.table).where(eq(referrer.column, id)).limit(1);

/** The condition "no row of any referrer names `id`", for the WHERE of the guarded write. */
export const unreferenced = (db: Db, referrers: Referrer[], id: string): SQL =>
  and(...referrers.map((referrer) => notExists(rowsNaming(db, referrer, id))))!;

/** What names `id` now, in the referrers' order (one round trip); empty when nothing does. */
export async function referencesOf(db: Db, referrers: Referrer[], id: string): Promise<string[]> {
  const [first, ...rest] = referrers.map((referrer) => rowsNaming(db, referrer, id));
  const found = await db.batch([first!, ...rest]);
  return referrers.filter((_, i) => found[i]!.length > 0).map((referrer) => referrer.what);
}

/** "invoices, quotes and projects". */
export function listed(names: string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
