// What a draft's delete takes with it in its own batch, beyond the draft: the rooms built on invoices
// register it at start (src/registrations.ts), so the delete does not import them. Quotes gives back
// the quote the draft was converted from.
import type { BatchItem } from 'drizzle-orm/batch';
import type { WorkspaceContext } from '../../lib/context';

/** The statements that follow the delete of `invoice` in its batch (none when nothing of the room names it). */
export type DraftDeletedStatements = (ctx: WorkspaceContext, invoice: { id: string; quoteId: string | null }) => Promise<BatchItem<'sqlite'>[]>;

const registered: DraftDeletedStatements[] = [];

export function registerDraftDeleted(statements: DraftDeletedStatements): void {
  registered.push(statements);
}

export async function draftDeletedStatements(ctx: WorkspaceContext, invoice: { id: string; quoteId: string | null }): Promise<BatchItem<'sqlite'>[]> {
  return (await Promise.all(registered.map((statements) => statements(ctx, invoice)))).flat();
}
