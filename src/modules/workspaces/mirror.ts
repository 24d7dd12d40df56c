// A workspace placed on a database other than DB (lib/databases.ts) keeps, in that database, a copy
// of the directory rows its records point at: its workspace row (records reference workspaces.id,
// and numbering, sending and the cron read its settings there) and the user rows of its members
// (records reference users.id as their maker). The directory stays the truth for who may do what;
// the copies exist for the foreign keys and the settings a record's batch reads. Every write here is
// an upsert or an INSERT OR IGNORE, so repeating one (a retry, the next settings change) is harmless.
// The two tables' own file, not the whole schema.
import { users, workspaces } from '../../db/schema/workspaces';
import type { Db } from '../../lib/db';
import type { WorkspaceRow } from './settings';

type UserRow = typeof users.$inferSelect;

/**
 * The workspace row as the directory has it, settings included. `invoice_seq`, `credit_note_seq`
 * and `quote_seq` are the fields the copy owns (a new invoice's, credit note's or quote's batch
 * bumps them there), so an existing copy keeps its own.
 */
export function mirrorWorkspace(db: Db, row: WorkspaceRow) {
  const { id: _id, invoiceSeq: _seq, creditNoteSeq: _creditSeq, quoteSeq: _quoteSeq, createdAt: _created, ...settings } = row;
  return db.insert(workspaces).values(row).onConflictDoUpdate({ target: workspaces.id, set: settings });
}

/** Members' user rows, as foreign keys need them; a user already copied is left as it is. */
export function mirrorUser(db: Db, user: UserRow) {
  return db.insert(users).values(user).onConflictDoNothing();
}
