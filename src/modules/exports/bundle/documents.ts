// The bundle's documents: each sent invoice's and credit note's PDF, made by the renderer worker as the API makes
// it (a Factur-X PDF/A-3b with its CII where the workspace says so), and its CII XML where the document is a
// complete EN 16931 e-invoice; and each accepted received document's original, as it was received (§21). Read
// a page of documents per D1 round trip, and written into the ZIP one at a time.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { creditNoteLineItems, creditNotes, invoiceLineItems, invoices, type workspaces } from '../../../db/schema';
import type { WorkspaceContext } from '../../../lib/context';
import { creditNoteFacturXCii, creditNoteValueOf } from '../../credit-notes/documents';
import { renderEInvoice } from '../../documents/einvoice';
import { printedDocument } from '../../documents/render/printed';
import type { DocumentValue } from '../../documents/value';
import { invoiceValueOf } from '../../invoices/document-for';
import { facturXCii } from '../../invoices/einvoice';
import { renderPdf } from '../../invoices/render/respond';
import { keyset, type Period, walk } from '../pages';
import type { ZipUpload } from './zip-upload';

/** Documents per page: their rows and lines are one D1 round trip; each PDF one call of the renderer. */
export const DOCUMENTS_PER_PAGE = 25;

type Workspace = typeof workspaces.$inferSelect;
type Job = { ctx: WorkspaceContext; workspace: Workspace; period: Period; origin: string; zip: ZipUpload };

const encoder = new TextEncoder();

/** A file name from a document number: `/` and other characters a path would take apart become `_` (as the XML downloads' do). */
export const fileNameOf = (number: string) => number.replace(/[^\w.#-]/g, '_');

async function addDocument(job: Job, folder: string, number: string, value: DocumentValue, cii: string | null) {
  const name = `${folder}/${fileNameOf(number)}`;
  await job.zip.add(`${name}.pdf`, await renderPdf(job.ctx.env.RENDERER, printedDocument(value), cii), false);
  const xml = cii ?? renderEInvoice(value, 'cii').xml;
  if (xml) await job.zip.add(`${name}.cii.xml`, encoder.encode(xml), true);
}

const INVOICE_IDS = `SELECT i.issue_date, i.id FROM invoices i
  WHERE i.workspace_id = ?1 AND ${keyset('i.issue_date', 'i.id')} AND i.status <> 'draft' ORDER BY i.issue_date, i.id LIMIT ?6`;

/** Every invoice issued in the period that was sent (a voided one too: it was issued). */
export async function addInvoices(job: Job): Promise<number> {
  const { ctx } = job;
  let count = 0;
  for await (const page of walk(ctx, INVOICE_IDS, job.period, DOCUMENTS_PER_PAGE)) {
    const ids = page.map((r) => r[1] as string);
    const [rows, lines] = await ctx.db.batch([
      ctx.db.select().from(invoices).where(and(eq(invoices.workspaceId, ctx.workspaceId), inArray(invoices.id, ids))).orderBy(asc(invoices.issueDate), asc(invoices.id)),
      ctx.db.select().from(invoiceLineItems).where(inArray(invoiceLineItems.invoiceId, ids)).orderBy(asc(invoiceLineItems.invoiceId), asc(invoiceLineItems.position)),
    ]);
    for (const row of rows) {
      const found = { invoice: { row, lines: lines.filter((l) => l.invoiceId === row.id) }, workspace: job.workspace };
      const value = await invoiceValueOf(ctx, found, job.origin);
      await addDocument(job, 'invoices', row.number, value, facturXCii(value, job.workspace));
      count++;
    }
  }
  return count;
}

const CREDIT_NOTE_IDS = `SELECT c.issue_date, c.id FROM credit_notes c
  WHERE c.workspace_id = ?1 AND ${keyset('c.issue_date', 'c.id')} ORDER BY c.issue_date, c.id LIMIT ?6`;

/** Every credit note issued in the period, read with the invoice it corrects. */
export async function addCreditNotes(job: Job): Promise<number> {
  const { ctx } = job;
  let count = 0;
  for await (const page of walk(ctx, CREDIT_NOTE_IDS, job.period, DOCUMENTS_PER_PAGE)) {
    const ids = page.map((r) => r[1] as string);
    const invoiceIds = ctx.db.select({ id: creditNotes.invoiceId }).from(creditNotes).where(inArray(creditNotes.id, ids));
    const [notes, noteLines, noteInvoices, invoiceLines] = await ctx.db.batch([
      ctx.db.select().from(creditNotes).where(and(eq(creditNotes.workspaceId, ctx.workspaceId), inArray(creditNotes.id, ids))).orderBy(asc(creditNotes.issueDate), asc(creditNotes.id)),
      ctx.db.select().from(creditNoteLineItems).where(inArray(creditNoteLineItems.creditNoteId, ids)).orderBy(asc(creditNoteLineItems.creditNoteId), asc(creditNoteLineItems.position)),
      ctx.db.select().from(invoices).where(inArray(invoices.id, invoiceIds)),
      ctx.db.select().from(invoiceLineItems).where(inArray(invoiceLineItems.invoiceId, invoiceIds)).orderBy(asc(invoiceLineItems.invoiceId), asc(invoiceLineItems.position)),
    ]);
    for (const row of notes) {
      const invoice = noteInvoices.find((i) => i.id === row.invoiceId)!;
      const found = {
        invoice: { row: invoice, lines: invoiceLines.filter((l) => l.invoiceId === invoice.id) },
        workspace: job.workspace,
        note: { row, lines: noteLines.filter((l) => l.creditNoteId === row.id) },
      } as Parameters<typeof creditNoteValueOf>[1];
      const value = await creditNoteValueOf(ctx, found, job.origin);
      await addDocument(job, 'credit-notes', row.number, value, creditNoteFacturXCii(value, job.workspace));
      count++;
    }
  }
  return count;
}

// A received document belongs to the period of the expense it became, else of the day it was received.
const DAY = `coalesce(e.incurred_on, substr(d.received_at, 1, 10))`;
const RECEIVED = `SELECT ${DAY}, d.id, d.filename, d.file_key FROM inbound_documents d LEFT JOIN expenses e ON e.id = d.expense_id
  WHERE d.workspace_id = ?1 AND d.status = 'accepted' AND ${keyset(DAY, 'd.id')} ORDER BY ${DAY}, d.id LIMIT ?6`;

/** The original of every received document accepted into the period's expenses (§21), streamed from storage. */
export async function addReceived(job: Job): Promise<number> {
  let count = 0;
  for await (const page of walk(job.ctx, RECEIVED, job.period, DOCUMENTS_PER_PAGE)) {
    for (const [, id, filename, key] of page as [string, string, string, string][]) {
      const original = await job.ctx.env.FILES.get(key);
      if (!original) continue; // a row whose file was never stored has nothing to hand over
      await job.zip.addStream(`received/${id}-${fileNameOf(filename)}`, chunksOf(original.body), false);
      count++;
    }
  }
  return count;
}

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } finally {
    reader.releaseLock();
  }
}
