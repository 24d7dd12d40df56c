// The condition later statements of a batch write under, so that they take effect only with the
// invoice the batch wrote (its lines, its schedule's step, a credit note's invoice change).
import { and, eq, exists, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { invoices } from '../../db/schema';
import type { WorkspaceContext } from '../../lib/context';

/**
 * "This invoice now has exactly this updated_at": true only for the batch that wrote it. The id and
 * time are placeholders in a statement shape (draft-statements.ts).
 */
export const wroteInvoice = (ctx: Pick<WorkspaceContext, 'db'>, id: string | Placeholder, updatedAt: string | Placeholder): SQL =>
  exists(ctx.db.select({ one: sql`1` }).from(invoices).where(and(eq(invoices.id, id), eq(invoices.updatedAt, updatedAt))));
