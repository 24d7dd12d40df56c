// Voiding an invoice frees what it billed: the time entries and expenses stamped with it (§19) can be
// billed again. The statements ride in the void's own batch (actions.ts).
import { and, eq, sql } from 'drizzle-orm';
import { expenses, timeEntries } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { nowIso } from '../../lib/time';

/**
 * The entries and expenses an invoice bills lose it when the invoice is voided (a deleted draft
 * releases them by its foreign key): statements for the void's batch.
 */
export function releaseBilledWork(ctx: WorkspaceContext, invoiceId: string) {
  const voided = sql`EXISTS (SELECT 1 FROM invoices WHERE id = ${invoiceId} AND status = 'void')`;
  const now = nowIso();
  return [
    ctx.db.update(timeEntries).set({ invoiceId: null, updatedAt: now }).where(and(inWorkspace(ctx, timeEntries), eq(timeEntries.invoiceId, invoiceId), voided)),
    ctx.db.update(expenses).set({ invoiceId: null, updatedAt: now }).where(and(inWorkspace(ctx, expenses), eq(expenses.invoiceId, invoiceId), voided)),
  ] as const;
}
