// §21 "Review": accepting a document books it as an expense (§5) with what was read from it, in one batch with the
// document's change and both events. Two D1 round trips: one batch reads the document (and the project named),
// one writes. The write is led by an UPDATE guarded on the document being in review exactly as it was read, and
// not a duplicate of a document still standing, so of two accepts at once one books the expense and the other
// finds the document accepted (409); a correction that came in between is read again instead.
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { expenses, inboundDocuments, projects } from '../../db/schema';
import { ApiError, invalidField, invalidState, notFound } from '../../errors';
import { inWorkspace, type ServiceContext } from '../../lib/context';
import { changedRows, insertIf, previousChanged, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { type ExpenseRow, serializeExpense } from '../expenses/service';
import { assertConvertible } from '../rates/convertible';
import type { AcceptInboundDocumentBody, ExtractedValue } from './schemas';
import { type InboundDocumentRow, serializeInboundDocument } from './serialize';
import type { z } from '@hono/zod-openapi';

export type AcceptInput = z.infer<typeof AcceptInboundDocumentBody>;

const originals = alias(inboundDocuments, 'original');

/** A duplicate stands in the way while the document it repeats stands: one rejected (or unreadable) was never booked. */
const STANDING_ASIDE = ['rejected', 'failed'] as const;
const notADuplicate = or(
  isNull(inboundDocuments.duplicateOf),
  sql`coalesce((SELECT original.status FROM ${inboundDocuments} AS original WHERE original.id = ${inboundDocuments.duplicateOf}), 'rejected') IN ${STANDING_ASIDE}`,
);

export async function acceptInboundDocument(ctx: ServiceContext, id: string, input: AcceptInput): Promise<InboundDocumentRow> {
  return retryOnRace('inbound document', async () => {
    const [[before], found, [original]] = await ctx.db.batch([
      ctx.db.select().from(inboundDocuments).where(and(eq(inboundDocuments.id, id), inWorkspace(ctx, inboundDocuments))),
      // (No project named: an id no row has, read in the same round trip as if there were.)
      ctx.db.select({ id: projects.id }).from(projects).where(and(eq(projects.id, input.project_id ?? ''), inWorkspace(ctx, projects))),
      ctx.db
        .select({ id: originals.id, status: originals.status })
        .from(originals)
        .innerJoin(inboundDocuments, eq(inboundDocuments.duplicateOf, originals.id))
        .where(and(eq(inboundDocuments.id, id), inWorkspace(ctx, inboundDocuments))),
    ]);
    if (!before) throw notFound('Inbound document');
    if (before.status !== 'needs_review') throw notInReview(before);
    if (original && !(STANDING_ASIDE as readonly string[]).includes(original.status)) {
      throw new ApiError('conflict', `This document duplicates ${original.id}, received before it (${original.status}); it is not booked twice.`, [
        { path: 'duplicate_of', message: original.id },
      ]);
    }
    if (input.project_id && !found.length) throw invalidField('project_id', 'No such project.');
    const extracted = bookable(before);
    await assertConvertible(ctx.env, extracted.currency);

    const now = nowIso();
    const expense = expenseOf(ctx, before, extracted, input, now);
    const after: InboundDocumentRow = { ...before, status: 'accepted', expenseId: expense.id, updatedAt: now };
    const [accepted] = await ctx.db.batch([
      ctx.db
        .update(inboundDocuments)
        .set({ status: 'accepted', expenseId: expense.id, updatedAt: now })
        .where(and(
          eq(inboundDocuments.id, id), inWorkspace(ctx, inboundDocuments), eq(inboundDocuments.status, 'needs_review'),
          eq(inboundDocuments.updatedAt, before.updatedAt), notADuplicate,
        )),
      insertIf(ctx.db, expenses, expense, previousChanged),
      recordEvent(ctx, 'inbound_document.accepted', serializeInboundDocument(after), { ifChanged: true }),
      recordEvent(ctx, 'expense.created', serializeExpense(expense), { ifChanged: true }),
    ]);
    // Not accepted: another request changed the document (accepted, rejected or corrected it); read it again.
    return changedRows(accepted) > 0 ? after : undefined;
  });
}

const notInReview = (row: InboundDocumentRow) =>
  invalidState(
    row.status === 'accepted'
      ? `Inbound document ${row.id} is already accepted as expense ${row.expenseId}.`
      : `Inbound document ${row.id} is ${row.status}: only a document in review (needs_review) is accepted.`,
  );

type Bookable = ExtractedValue & { currency: string; issue_date: string; total: number };

/**
 * What an expense needs from the document, checked: a total above zero, a currency and an issue date, and a net
 * and tax that add up to the total when both are stated (else the input tax would be wrong). A credit note lowers a
 * cost rather than adding one, and an expense is never negative: it is not booked as an expense.
 */
function bookable(row: InboundDocumentRow): Bookable {
  const extracted = row.extracted ? (JSON.parse(row.extracted) as ExtractedValue) : null;
  if (extracted?.kind === 'credit_note') {
    throw invalidState(
      `Inbound document ${row.id} is a credit note: it lowers a cost rather than adding one, and an expense is never negative. `
        + 'Lower the expense of the invoice it corrects (delete that expense, correct its document and accept it again), then reject this one naming it.',
    );
  }
  const missing = (['total', 'currency', 'issue_date'] as const).filter((field) => extracted?.[field] == null);
  if (!extracted || missing.length) {
    throw new ApiError('invalid_state', 'The document does not state all an expense needs: fill them in (PATCH its extracted), then accept it.',
      (missing.length ? missing : ['total', 'currency', 'issue_date']).map((field) => ({ path: `extracted.${field}`, message: 'Needed to book the expense.' })));
  }
  if (extracted.total! <= 0) throw invalidState(`Inbound document ${row.id} totals 0: there is no expense to book; reject it instead.`);
  if (extracted.subtotal != null && extracted.tax != null && extracted.subtotal + extracted.tax !== extracted.total) {
    throw new ApiError('invalid_state', `The document's amounts do not add up: subtotal ${extracted.subtotal} + tax ${extracted.tax} is not its total ${extracted.total}. Correct them (PATCH its extracted), then accept it.`,
      [{ path: 'extracted.total', message: 'subtotal + tax' }]);
  }
  return extracted as Bookable;
}

function expenseOf(ctx: ServiceContext, document: InboundDocumentRow, extracted: Bookable, input: AcceptInput, now: string): ExpenseRow {
  // The split as stated; one of net and tax gives the other (amount = net + tax).
  const tax = extracted.tax ?? (extracted.subtotal != null ? extracted.total - extracted.subtotal : null);
  const net = extracted.subtotal ?? (tax != null ? extracted.total - tax : null);
  return {
    id: newId('expense'),
    userId: ctx.userId,
    workspaceId: ctx.workspaceId,
    projectId: input.project_id ?? null,
    category: input.category,
    description: input.description ?? null,
    vendor: extracted.supplier.name,
    amount: extracted.total,
    currency: extracted.currency,
    incurredOn: extracted.issue_date,
    billable: input.billable,
    invoiceId: null,
    supplier: JSON.stringify(extracted.supplier),
    reference: extracted.number,
    netAmount: net,
    taxAmount: tax,
    taxBreakdown: JSON.stringify(extracted.tax_breakdown),
    dueDate: extracted.due_date,
    documentId: document.id,
    createdAt: now,
    updatedAt: now,
  };
}
