// A new draft's batch is sent as statement shapes (src/modules/invoices/draft-statements.ts): each
// must stay exactly the statement, with the same values, that plainDraftStatements builds with
// numbering.ts, insertIf, recordEvent and insertLineStatements (as a draft another room guards is
// written), for a drawn and a given number and for none yet (numbered at send, §20), and for lines
// in one statement and in two.
import { env } from 'cloudflare:workers';
import { type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceContext } from '../../src/lib/context';
import { createDb } from '../../src/lib/db';
import { draftStatements, plainDraftStatements } from '../../src/modules/invoices/draft-statements';
import { buildLines } from '../../src/modules/invoices/lines';
import { bumpCounter, currentDefaultNumber } from '../../src/modules/invoices/numbering';
import type { InvoiceRow } from '../../src/modules/invoices/serialize';
import { invoiceObject } from '../../src/modules/invoices/service';
import { wroteInvoice } from '../../src/modules/invoices/wrote-invoice';

afterEach(() => vi.useRealTimers());

const ctx: WorkspaceContext = { db: createDb(env.DB), env, workspaceId: 'wsp_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', timeZone: 'UTC', actor: { type: 'user', id: 'usr_01JD5ZQ5X8Y4V1N2K3M4P5Q6R8', name: 'Ada' } };

function draft(lineCount: number) {
  const id = 'inv_01JD5ZQ5X8Y4V1N2K3M4P5Q6R9';
  const content = { line_items: Array.from({ length: lineCount }, (_, i) => ({ description: `Design work ${i + 1}`, quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25 })) };
  const { rows: lines, columns } = buildLines(id, content as never, { taxRounding: 'line', issuerHasVatId: false });
  const now = '2026-11-28T10:00:00.000Z';
  const row = {
    id, userId: ctx.actor.id, workspaceId: ctx.workspaceId, number: '', status: 'draft', clientId: 'cli_01JD5ZQ5X8Y4V1N2K3M4P5Q6RA', projectId: null, currency: 'EUR',
    issueDate: '2026-11-28', dueDate: '2026-12-28', ...columns, buyerReference: null, purchaseOrder: 'PO-7', amountPaid: 0, notes: 'Thanks!', sentAt: null, paidAt: null, voidedAt: null,
    createdAt: now, updatedAt: now, issuer: null, billTo: null, locale: null, paymentInstructions: null, linkVersion: null, linkHash: null, viewedAt: null, linkOrigin: null,
    recurringInvoiceId: null, recurringPeriod: null, overdueNotifiedAt: null, overpaidAmount: 0, creditedAmount: 0, creditNoteIds: null, quoteId: null,
  } as InvoiceRow;
  return { row, lines };
}

/** What each statement sends: its SQL and values, the event's own id left out (each build draws one). */
const sent = (statements: BatchItem<'sqlite'>[]) =>
  statements.map((statement) => {
    const { sql, params } = (statement as unknown as { _prepare(): { getQuery(): { sql: string; params: unknown[] } } })._prepare().getQuery();
    return { sql, params: params.map((value) => (typeof value === 'string' && /^evt_/.test(value) ? 'evt_…' : value)) };
  });

describe('a new draft\'s statements', () => {
  for (const [number, lineCount] of [[undefined, 5], ['INV-2026-0042', 9], ['unnumbered', 3]] as const) {
    const named = number === undefined ? 'the counter\'s next number' : number === 'unnumbered' ? 'no number yet' : 'a given number';
    it(`are the plain functions' statements (${named}, ${lineCount} lines)`, () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-28T10:00:00.123Z'));
      const { row: drafted, lines } = draft(lineCount);
      const unnumbered = number === 'unnumbered';
      // An unnumbered draft stores its own id as its number (numbering.ts).
      const row = unnumbered ? { ...drafted, number: drafted.id } : drafted;
      const explicit = unnumbered ? row.id : number;
      const object = invoiceObject(ctx, { row, lines });
      // As withInvoiceNumber gives it.
      const value: SQL = explicit === undefined ? currentDefaultNumber(ctx) : sql`${explicit}`;
      const plain = plainDraftStatements(ctx, row, lines, object, { value, explicit, before: explicit === undefined ? [bumpCounter(ctx)] : [], unnumbered }, wroteInvoice(ctx, row.id, row.updatedAt));
      const shaped = draftStatements(ctx, row, lines, object, explicit, unnumbered);
      expect(shaped).toHaveLength(plain.length);
      expect(sent(shaped)).toEqual(sent(plain));
    });
  }
});
