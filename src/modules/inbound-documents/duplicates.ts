// §21: a document is a duplicate of one already received in the workspace when its bytes are the same (sha256), or
// when its supplier and number are: the supplier by its VAT id (without spaces, upper case), else by its name (lower
// case, spaces collapsed), and the number as written. The keys are stored on the row (`supplier_key`, `number`,
// indexed) when it is read, and again whenever its `extracted` changes.
import { and, asc, eq, lt, ne, or, type SQL } from 'drizzle-orm';
import { inboundDocuments } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import type { ExtractedValue } from './schemas';

export type DuplicateKeys = { supplierKey: string | null; number: string | null };

export function duplicateKeys(extracted: Pick<ExtractedValue, 'supplier' | 'number'> | null): DuplicateKeys {
  const vatId = extracted?.supplier.vat_id?.replace(/\s+/g, '').toUpperCase();
  const name = extracted?.supplier.name?.trim().replace(/\s+/g, ' ').toLowerCase();
  const number = extracted?.number?.trim();
  return { supplierKey: vatId || (name ? `name:${name}` : null), number: number || null };
}

/**
 * The first document received before this one that it duplicates, if any: the earliest, so every copy names the
 * original rather than the copy before it. A rejected document is no original (it was never booked).
 */
export async function findOriginal(ctx: WorkspaceContext, document: { id: string; sha256: string }, keys: DuplicateKeys): Promise<string | null> {
  const sameSupplierAndNumber: SQL | undefined =
    keys.supplierKey && keys.number ? and(eq(inboundDocuments.supplierKey, keys.supplierKey), eq(inboundDocuments.number, keys.number)) : undefined;
  const [original] = await ctx.db
    .select({ id: inboundDocuments.id })
    .from(inboundDocuments)
    .where(
      and(
        inWorkspace(ctx, inboundDocuments),
        lt(inboundDocuments.id, document.id),
        ne(inboundDocuments.status, 'rejected'),
        or(eq(inboundDocuments.sha256, document.sha256), sameSupplierAndNumber),
      ),
    )
    .orderBy(asc(inboundDocuments.id))
    .limit(1);
  return original?.id ?? null;
}
