// Invoice numbers: unique per workspace. A default number is the workspace's prefix and its
// counter, reserved with one atomic UPDATE … RETURNING before the invoice is written, so twenty
// racing creations get twenty consecutive numbers and each invoice (and its event) knows its number
// before its batch runs. The insert itself only happens if no invoice of the workspace has that
// number yet (a hand-picked one may): then the counter jumps past the highest number in use with
// the prefix, and the creation takes the next one. A crash between reservation and insert leaves a
// gap in the sequence, never a duplicate.
import { and, eq, ne, notExists, type SQL, sql } from 'drizzle-orm';
import { invoices, workspaces } from '../../db/schema';
import { ApiError } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';

const MAX_ATTEMPTS = 3;

export const numberTaken = (number: string) =>
  new ApiError('invoice_number_taken', `This workspace already has an invoice numbered ${number}.`, [{ path: 'number', message: 'Already in use.' }]);

/** The condition that no other invoice of the workspace has `number` (for the guarded write). */
export function numberIsFree(ctx: WorkspaceContext, number: string, exceptId?: string): SQL {
  return notExists(
    ctx.db
      .select({ one: sql`1` })
      .from(invoices)
      .where(and(eq(invoices.workspaceId, ctx.workspaceId), eq(invoices.number, number), exceptId ? ne(invoices.id, exceptId) : undefined)),
  );
}

async function reserveNumber(ctx: WorkspaceContext): Promise<string> {
  const [reserved] = await ctx.db
    .update(workspaces)
    .set({ invoiceSeq: sql`${workspaces.invoiceSeq} + 1` })
    .where(eq(workspaces.id, ctx.workspaceId))
    .returning({ seq: workspaces.invoiceSeq, prefix: workspaces.invoicePrefix });
  return `${reserved!.prefix}${String(reserved!.seq).padStart(6, '0')}`;
}

/** Moves the counter past every number in use with the workspace's prefix (hand-picked ones too). */
async function skipNumbersInUse(ctx: WorkspaceContext): Promise<void> {
  // The prefix is compared with substr, never put into a LIKE or GLOB pattern: it is user text.
  await ctx.db
    .update(workspaces)
    .set({
      invoiceSeq: sql`max(${workspaces.invoiceSeq}, coalesce((
        SELECT max(CAST(substr(i.number, length(${workspaces.invoicePrefix}) + 1) AS INTEGER)) FROM invoices i
        WHERE i.workspace_id = ${workspaces.id} AND substr(i.number, 1, length(${workspaces.invoicePrefix})) = ${workspaces.invoicePrefix}
          AND substr(i.number, length(${workspaces.invoicePrefix}) + 1) NOT GLOB '*[^0-9]*'
          AND length(i.number) > length(${workspaces.invoicePrefix})), 0))`,
    })
    .where(eq(workspaces.id, ctx.workspaceId));
}

/**
 * Writes a new invoice under its number: `explicit` as given (409 if taken), else the next
 * default one. `write(number)` runs the batch and answers whether the invoice went in.
 */
export async function withInvoiceNumber<T>(
  ctx: WorkspaceContext,
  explicit: string | undefined,
  write: (number: string) => Promise<T | undefined>,
): Promise<T> {
  if (explicit !== undefined) {
    const written = await write(explicit);
    if (written === undefined) throw numberTaken(explicit);
    return written;
  }
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const written = await write(await reserveNumber(ctx));
    if (written !== undefined) return written;
    await skipNumbersInUse(ctx);
  }
  throw new ApiError('conflict', 'Could not find a free invoice number; try again or pass `number`.');
}
