// Invoice numbers: unique per workspace. A default number is the workspace's prefix and its
// counter: the creation's batch bumps the counter and the invoice takes the number in SQL, in the
// same transaction, so twenty racing creations get twenty consecutive numbers and no failed one
// leaves a gap. The insert only happens if no invoice of the workspace has that number yet (a
// hand-picked one may): then the counter jumps past the highest number in use with the prefix,
// and the creation tries the next one.
import { and, eq, ne, notExists, type SQL, sql } from 'drizzle-orm';
import { invoices, workspaces } from '../../db/schema';
import { ApiError } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';

const MAX_ATTEMPTS = 3;

export const numberTaken = (number: string) =>
  new ApiError('invoice_number_taken', `This workspace already has an invoice numbered ${number}.`, [{ path: 'number', message: 'Already in use.' }]);

/** The condition that no other invoice of the workspace has `number` (for the guarded write). */
export function numberIsFree(ctx: WorkspaceContext, number: string | SQL, exceptId?: string): SQL {
  return notExists(
    ctx.db
      .select({ one: sql`1` })
      .from(invoices)
      .where(and(eq(invoices.workspaceId, ctx.workspaceId), eq(invoices.number, number), exceptId ? ne(invoices.id, exceptId) : undefined)),
  );
}

/** Where a new invoice's number comes from: the caller's literal, or the workspace's counter. */
export type InvoiceNumber = {
  /** The number, as SQL for the batch that writes the invoice (and its event). */
  value: SQL;
  /** Statements that must run before it in that batch: the counter bump for a default number. */
  before: ReturnType<typeof bumpCounter>[];
};

/** The counter bump of a batch that writes a default-numbered invoice; `onlyIf` holds it back with the write. */
export const bumpCounter = (ctx: WorkspaceContext, onlyIf?: SQL) =>
  ctx.db.update(workspaces).set({ invoiceSeq: sql`${workspaces.invoiceSeq} + 1` }).where(and(eq(workspaces.id, ctx.workspaceId), onlyIf));

/** The workspace's current default number: right after bumpCounter in a batch, the next one. */
export const currentDefaultNumber = (ctx: WorkspaceContext) =>
  sql`(SELECT ${workspaces.invoicePrefix} || printf('%06d', ${workspaces.invoiceSeq}) FROM ${workspaces} WHERE ${workspaces.id} = ${ctx.workspaceId})`;

/**
 * A hand-picked number counts as one of the sequence only with a tail of 1–12 digits. A longer one
 * (`INV-` + 30 nines) would cast to SQLite's largest integer and leave no default number after it;
 * it is kept as given, but never moves the counter.
 */
const MAX_SEQUENCE_DIGITS = 12;

/** Moves the counter past every number in use with the workspace's prefix and a tail of 1–12 digits (hand-picked ones too). */
export async function skipNumbersInUse(ctx: WorkspaceContext): Promise<void> {
  // The prefix is compared with substr, never put into a LIKE or GLOB pattern: it is user text.
  await ctx.db
    .update(workspaces)
    .set({
      invoiceSeq: sql`max(${workspaces.invoiceSeq}, coalesce((
        SELECT max(CAST(substr(i.number, length(${workspaces.invoicePrefix}) + 1) AS INTEGER)) FROM invoices i
        WHERE i.workspace_id = ${workspaces.id} AND substr(i.number, 1, length(${workspaces.invoicePrefix})) = ${workspaces.invoicePrefix}
          AND substr(i.number, length(${workspaces.invoicePrefix}) + 1) NOT GLOB '*[^0-9]*'
          AND length(i.number) - length(${workspaces.invoicePrefix}) BETWEEN 1 AND ${MAX_SEQUENCE_DIGITS}), 0))`,
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
): Promise<T> {
  if (explicit !== undefined) {
    const written = await write({ value: sql`${explicit}`, before: [] });
    if (written === undefined) throw numberTaken(explicit);
    return written;
  }
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const written = await write({ value: currentDefaultNumber(ctx), before: [bumpCounter(ctx, onlyIf)] });
    if (written !== undefined) return written;
    await skipNumbersInUse(ctx);
  }
  throw new ApiError('conflict', 'Could not find a free invoice number; try again or pass `number`.');
}
