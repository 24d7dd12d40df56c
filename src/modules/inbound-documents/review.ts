// §21 "Review": a person corrects what was read (PATCH `extracted`, while the document is in review) or turns the
// document away (reject, with a reason). A correction of the supplier or the number finds the document's original
// again (duplicates.ts), so a duplicate shows as one, or stops showing, by what it now says. Each change is one
// batch with its event, guarded on the document as it was read.
import { and, eq, notInArray } from 'drizzle-orm';
import { inboundDocuments } from '../../db/schema';
import { invalidState } from '../../errors';
import { inWorkspace, type ServiceContext } from '../../lib/context';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { updateWithEvent } from '../events/update-with-event';
import { duplicateKeys, findOriginal } from './duplicates';
import type { ExtractedValue, RejectInboundDocumentBody, UpdateInboundDocumentBody } from './schemas';
import { type InboundDocumentRow, serializeInboundDocument } from './serialize';
import { getInboundDocument } from './service';
import type { z } from '@hono/zod-openapi';

type Correction = z.infer<typeof UpdateInboundDocumentBody>['extracted'];

/** What a document that nothing could be read from (a model that extracted nothing) is corrected from. */
const NOTHING_READ: ExtractedValue = {
  kind: 'invoice',
  supplier: { name: null, vat_id: null, tax_id: null, address: null, iban: null },
  number: null, issue_date: null, due_date: null, currency: null, subtotal: null, tax: null, total: null,
  tax_breakdown: [], lines: [], buyer_reference: null, purchase_order: null,
};

/** The named fields replace what was read; `supplier`'s named fields replace the supplier's. */
export function corrected(extracted: ExtractedValue | null, correction: Correction): ExtractedValue {
  const base = extracted ?? NOTHING_READ;
  const { supplier, ...rest } = correction;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const supplierDefined = Object.fromEntries(Object.entries(supplier ?? {}).filter(([, value]) => value !== undefined));
  return { ...base, ...defined, supplier: { ...base.supplier, ...supplierDefined } } as ExtractedValue;
}

export async function correctInboundDocument(ctx: ServiceContext, id: string, correction: Correction): Promise<InboundDocumentRow> {
  // The original is looked up before the guarded write, from what the correction makes the document say.
  let planned: { extracted: ExtractedValue; duplicateOf: string | null } | undefined;
  return updateWithEvent(ctx, {
    what: 'inbound document', table: inboundDocuments, type: 'inbound_document.updated', serialize: serializeInboundDocument,
    read: async () => {
      const before = await getInboundDocument(ctx, id);
      if (before.status !== 'needs_review') {
        throw invalidState(`Inbound document ${id} is ${before.status}: what was read is corrected only while it is in review (needs_review).`);
      }
      const extracted = corrected(before.extracted ? (JSON.parse(before.extracted) as ExtractedValue) : null, correction);
      planned = { extracted, duplicateOf: await findOriginal(ctx, before, duplicateKeys(extracted)) };
      return before;
    },
    change: () => {
      const { extracted, duplicateOf } = planned!;
      const keys = duplicateKeys(extracted);
      return { extracted: JSON.stringify(extracted), supplierKey: keys.supplierKey, number: keys.number, duplicateOf };
    },
    guard: () => eq(inboundDocuments.status, 'needs_review'),
  });
}

/** Only a document not booked can be turned away: an accepted one is its expense's until that is deleted. */
const FINAL = ['accepted', 'rejected'] as const;

export async function rejectInboundDocument(ctx: ServiceContext, id: string, input: z.infer<typeof RejectInboundDocumentBody>): Promise<InboundDocumentRow> {
  return retryOnRace('inbound document', async () => {
    const before = await getInboundDocument(ctx, id);
    if (before.status === 'accepted') {
      throw invalidState(`Inbound document ${id} is accepted as expense ${before.expenseId}: delete that expense (the document returns to review) to reject it.`);
    }
    if (before.status === 'rejected') throw invalidState(`Inbound document ${id} is already rejected.`);
    const now = nowIso();
    const after: InboundDocumentRow = { ...before, status: 'rejected', rejectedReason: input.reason, updatedAt: now };
    const [rejected] = await ctx.db.batch([
      ctx.db
        .update(inboundDocuments)
        .set({ status: 'rejected', rejectedReason: input.reason, updatedAt: now })
        .where(and(eq(inboundDocuments.id, id), inWorkspace(ctx, inboundDocuments), eq(inboundDocuments.updatedAt, before.updatedAt), notInArray(inboundDocuments.status, [...FINAL]))),
      recordEvent(ctx, 'inbound_document.rejected', serializeInboundDocument(after), { ifChanged: true }),
    ]);
    return changedRows(rejected) > 0 ? after : undefined;
  });
}
