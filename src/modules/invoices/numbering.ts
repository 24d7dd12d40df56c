// Invoice numbers: unique per workspace. A default number is the workspace's prefix and its
// counter: the creation's batch bumps the counter and the invoice takes the number in SQL, in the
// same transaction, so twenty racing creations get twenty consecutive numbers and no failed one
// leaves a gap. The insert only happens if no invoice of the workspace has that number yet (a
// hand-picked one may): then the counter jumps past the highest number in use with the prefix,
// and the creation tries the next one. Quotes (§18) number themselves the same way, on a sequence
// of their own (`quote_prefix`, `quote_seq`), and credit notes (§17) on theirs (only default
// numbers, drawn in the batch that issues them): `Sequence` says which.
import { and, eq, ne, notExists, type Placeholder, type SQL, sql } from 'drizzle-orm';
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

/** Where a new invoice's number comes from: the caller's literal, or the workspace's counter. */
export type InvoiceNumber = {
  /** The number, as SQL for the batch that writes the invoice (and its event). */
  value: SQL;
  /** The caller's literal; undefined for the counter's next number. */
  explicit: string | undefined;
  /** Statements that must run before it in that batch: the counter bump for a default number. */
  before: ReturnType<typeof bumpCounter>[];
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
 */
export async function withInvoiceNumber<T>(
  ctx: WorkspaceContext,
  explicit: string | undefined,
  write: (number: InvoiceNumber) => Promise<T | undefined>,
  onlyIf?: SQL,
  sequence: Sequence = INVOICE_SEQUENCE,
): Promise<T> {
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
