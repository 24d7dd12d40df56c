// Invoice numbers: unique per workspace. A default number is the workspace's prefix and its
// counter: the creation's batch bumps the counter and the invoice takes the number in SQL, in the
// same transaction, so twenty racing creations get twenty consecutive numbers and no failed one
// leaves a gap. The insert only happens if no invoice of the workspace has that number yet (a
// hand-picked one may): then the counter jumps past the highest number in use with the prefix,
// and the creation tries the next one. Quotes (§18) number themselves the same way, on a sequence
// of their own (`quote_prefix`, `quote_seq`), and credit notes (§17) on theirs (only default
// numbers, drawn in the batch that issues them): `Sequence` says which.
//
// §20: with the workspace's `number_at: "send"`, a draft takes no default number when it is made but
// when it is sent, in the send's batch (numberAtSend), so numbers follow the order of sending. And
// deleting a draft that holds the newest number of its sequence gives that number back
// (giveBackNumber), so throwing away the last drafts leaves no gap.
import { and, eq, ne, notExists, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { creditNotes, invoices, quotes, workspaces } from '../../db/schema';
import { ApiError, type ErrorCode } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';

const MAX_ATTEMPTS = 3;

/** A numbered document's table and the workspace's counter and prefix for it. */
export type Sequence = {
  /** The document's name with its article, for messages ("an invoice"). */
  aNoun: string;
  noun: string;
  table: typeof invoices | typeof quotes | typeof creditNotes;
  tableName: 'invoices' | 'quotes' | 'credit_notes';
  /** The workspaces column that counts it, by its key in the update's set. */
  counterKey: 'invoiceSeq' | 'quoteSeq' | 'creditNoteSeq';
  prefix: typeof workspaces.invoicePrefix | typeof workspaces.quotePrefix | typeof workspaces.creditNotePrefix;
  /** The error code of a hand-picked number already in use. */
  takenCode: ErrorCode;
};

export const INVOICE_SEQUENCE: Sequence = { aNoun: 'an invoice', noun: 'invoice', table: invoices, tableName: 'invoices', counterKey: 'invoiceSeq', prefix: workspaces.invoicePrefix, takenCode: 'invoice_number_taken' };
export const QUOTE_SEQUENCE: Sequence = { aNoun: 'a quote', noun: 'quote', table: quotes, tableName: 'quotes', counterKey: 'quoteSeq', prefix: workspaces.quotePrefix, takenCode: 'conflict' };
// Credit notes only ever take default numbers, so no number of theirs is ever "taken".
export const CREDIT_NOTE_SEQUENCE: Sequence = {
  aNoun: 'a credit note', noun: 'credit note', table: creditNotes, tableName: 'credit_notes', counterKey: 'creditNoteSeq', prefix: workspaces.creditNotePrefix, takenCode: 'conflict',
};

export const numberTaken = (number: string, sequence: Sequence = INVOICE_SEQUENCE) =>
  new ApiError(sequence.takenCode, `This workspace already has ${sequence.aNoun} numbered ${number}.`, [{ path: 'number', message: 'Already in use.' }]);

/** Where a statement's workspace is named: the request's, or a placeholder in a statement shape (lib/statement-shape.ts). */
type InWorkspace = Pick<WorkspaceContext, 'db'> & { workspaceId: string | Placeholder };

/** The condition that no other invoice (or quote) of the workspace has `number` (for the guarded write). */
export function numberIsFree(ctx: InWorkspace, number: string | SQL, exceptId?: string, sequence: Sequence = INVOICE_SEQUENCE): SQL {
  const { table } = sequence;
  return notExists(
    ctx.db
      .select({ one: sql`1` })
      .from(table)
      .where(and(eq(table.workspaceId, ctx.workspaceId), eq(table.number, number), exceptId ? ne(table.id, exceptId) : undefined)),
  );
}

/**
 * "No number yet" (§20, `number_at: "send"`). The number columns of invoices and quotes are NOT NULL
 * and unique per workspace, and stay so (changing that would rebuild the tables): a draft that
 * takes its number when it is sent stores its own id as its number until then. An id is unique by
 * itself, and is never a number of the sequence (its tail is 26 characters, more than the 12 digits
 * skipNumbersInUse reads), so it blocks no one. The API, the events and the documents show it as null.
 */
export const isUnnumbered = (row: { id: string; number: string }) => row.number === row.id;

/** The number as the API shows it: null while the draft has none yet. */
export const shownNumber = (row: { id: string; number: string }): string | null => (isUnnumbered(row) ? null : row.number);

/** Where a new invoice's number comes from: the caller's literal, or the workspace's counter. */
export type InvoiceNumber = {
  /** The number, as SQL for the batch that writes the invoice (and its event). */
  value: SQL;
  /** The literal written (the caller's, or the draft's own id when unnumbered); undefined for the counter's next number. */
  explicit: string | undefined;
  /** Statements that must run before it in that batch: the counter bump for a default number. */
  before: ReturnType<typeof bumpCounter>[];
  /** The literal is the draft's own id: no number until it is sent (its event shows null, never the id). */
  unnumbered?: boolean;
};

/** The counter bump of a batch that writes a default-numbered invoice; `onlyIf` holds it back with the write. */
export const bumpCounter = (ctx: InWorkspace, onlyIf?: SQL, sequence: Sequence = INVOICE_SEQUENCE) =>
  ctx.db.update(workspaces).set({ [sequence.counterKey]: sql`${workspaces[sequence.counterKey]} + 1` }).where(and(eq(workspaces.id, ctx.workspaceId), onlyIf));

/** The workspace's current default number: right after bumpCounter in a batch, the next one. */
export const currentDefaultNumber = (ctx: Pick<InWorkspace, 'workspaceId'>, sequence: Sequence = INVOICE_SEQUENCE) =>
  sql`(SELECT ${sequence.prefix} || printf('%06d', ${workspaces[sequence.counterKey]}) FROM ${workspaces} WHERE ${workspaces.id} = ${ctx.workspaceId})`;

/**
 * A hand-picked number counts as one of the sequence only with a tail of 1–12 digits. A longer one
 * (`INV-` + 30 nines) would cast to SQLite's largest integer and leave no default number after it;
 * it is kept as given, but never moves the counter.
 */
const MAX_SEQUENCE_DIGITS = 12;

/** Moves the counter past every number in use with the workspace's prefix and a tail of 1–12 digits (hand-picked ones too). */
export async function skipNumbersInUse(ctx: WorkspaceContext, sequence: Sequence = INVOICE_SEQUENCE): Promise<void> {
  const { prefix, counterKey } = sequence;
  const counter = workspaces[counterKey];
  // The prefix is compared with substr, never put into a LIKE or GLOB pattern: it is user text.
  await ctx.db
    .update(workspaces)
    .set({
      [counterKey]: sql`max(${counter}, coalesce((
        SELECT max(CAST(substr(i.number, length(${prefix}) + 1) AS INTEGER)) FROM ${sql.identifier(sequence.tableName)} i
        WHERE i.workspace_id = ${workspaces.id} AND substr(i.number, 1, length(${prefix})) = ${prefix}
          AND substr(i.number, length(${prefix}) + 1) NOT GLOB '*[^0-9]*'
          AND length(i.number) - length(${prefix}) BETWEEN 1 AND ${MAX_SEQUENCE_DIGITS}), 0))`,
    })
    .where(eq(workspaces.id, ctx.workspaceId));
}

/**
 * Writes a new invoice under its number: `explicit` as given (409 if taken), else the next
 * default one. `write(number)` runs the batch and answers undefined when the number was taken (or
 * `onlyIf`, the batch's own guard, failed: the counter is held back with it, so that leaves no gap).
 * `unnumberedId`, the new draft's id when the workspace numbers at send: with no `explicit`, the
 * draft is written with no number yet (isUnnumbered), and the counter is left alone.
 */
export async function withInvoiceNumber<T>(
  ctx: WorkspaceContext,
  explicit: string | undefined,
  write: (number: InvoiceNumber) => Promise<T | undefined>,
  onlyIf?: SQL,
  sequence: Sequence = INVOICE_SEQUENCE,
  unnumberedId?: string,
): Promise<T> {
  if (explicit === undefined && unnumberedId !== undefined) {
    // Nothing can take a draft's own id: writing nothing means `onlyIf` failed.
    const written = await write({ value: sql`${unnumberedId}`, explicit: unnumberedId, before: [], unnumbered: true });
    if (written === undefined) throw new ApiError('conflict', `The ${sequence.noun} could not be written: what it depends on changed at the same time; try again.`);
    return written;
  }
  if (explicit !== undefined) {
    const written = await write({ value: sql`${explicit}`, explicit, before: [] });
    if (written === undefined) throw numberTaken(explicit, sequence);
    return written;
  }
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const written = await write({ value: currentDefaultNumber(ctx, sequence), explicit: undefined, before: [bumpCounter(ctx, onlyIf, sequence)] });
    if (written !== undefined) return written;
    await skipNumbersInUse(ctx, sequence);
  }
  throw new ApiError('conflict', `Could not find a free ${sequence.noun} number; try again or pass \`number\`.`);
}

/**
 * What a send's batch needs to number a draft that has none yet (§20, `number_at: "send"`): `bump`,
 * the counter's bump, run first and held back unless `guard` (the send's own guard) holds; `value`,
 * the number the send's UPDATE sets (and its events fill in); `isFree`, the condition for that UPDATE
 * that no other document of the sequence has it. A hand-picked number may: the send then writes
 * nothing, and the caller moves the counter past the numbers in use (skipNumbersInUse) and tries again.
 */
export function numberAtSend(ctx: WorkspaceContext, guard: SQL, sequence: Sequence = INVOICE_SEQUENCE) {
  const value = currentDefaultNumber(ctx, sequence);
  return { bump: bumpCounter(ctx, guard, sequence), value, isFree: numberIsFree(ctx, value, undefined, sequence) };
}

/**
 * For a draft's delete batch (§20): gives the draft's number back to its sequence when it is the
 * newest one, so the next default number is that one again and throwing away the last drafts leaves
 * no gap. The counter goes down by one only while it still points at this number and once no
 * document of the workspace has the number or the draft's id any more (the delete before it in the
 * batch happened): a lost race, a second delete of the same draft or a draft deleted after later
 * numbers were taken leaves the counter where it is (the last makes a gap, as it must).
 */
export function giveBackNumber(ctx: WorkspaceContext, draft: { id: string; number: string }, sequence: Sequence = INVOICE_SEQUENCE) {
  const { table, prefix, counterKey } = sequence;
  const counter = workspaces[counterKey];
  return ctx.db
    .update(workspaces)
    .set({ [counterKey]: sql`${counter} - 1` })
    .where(and(
      eq(workspaces.id, ctx.workspaceId),
      sql`${counter} > 0 AND ${prefix} || printf('%06d', ${counter}) = ${draft.number}`,
      notExists(ctx.db.select({ one: sql`1` }).from(table).where(and(eq(table.workspaceId, ctx.workspaceId), or(eq(table.id, draft.id), eq(table.number, draft.number))))),
    ));
}
