// Invoices: create (as a draft), read, list, and edit or delete while still a draft.
// Multi-row writes are one D1 batch; the database guards what must hold (unique numbers per user,
// amounts that add up), and every statement filters by owner.
import { and, asc, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import { invoiceLineItems, invoices } from '../../db/schema';
import { invalidField, invalidState, notFound } from '../../errors';
import type { Db } from '../../lib/db';
import { assertReferencedProject, referencedClient } from '../../lib/references';
import { newId } from '../../lib/ids';
import { addDays, nowIso, todayUtc } from '../../lib/time';
import { buildLines, insertLineStatements } from './lines';
import { insertInvoice, isNumberTaken, numberTaken } from './numbering';
import type { CreateInvoiceInput, InvoiceFilter, UpdateInvoiceInput } from './schemas';
import type { InvoiceRow } from './serialize';

export const INVOICE_DUE_DAYS = 30;

export async function createInvoice(db: Db, d1: D1Database, userId: string, input: CreateInvoiceInput) {
  const client = await referencedClient(db, userId, input.client_id);
  await assertReferencedProject(db, userId, input.project_id);
  const issueDate = input.issue_date ?? todayUtc();
  const dueDate = input.due_date ?? addDays(issueDate, INVOICE_DUE_DAYS);
  if (dueDate < issueDate) throw invalidField('due_date', 'due_date must not be before issue_date.');

  const id = newId('invoice');
  const { rows: lines, totals } = buildLines(id, input.line_items);
  const now = nowIso();
  const invoice: Omit<InvoiceRow, 'number'> = {
    id,
    userId,
    status: 'draft',
    clientId: client.id,
    projectId: input.project_id ?? null,
    currency: input.currency ?? client.currency,
    issueDate,
    dueDate,
    ...totals,
    amountPaid: 0,
    notes: input.notes ?? null,
    sentAt: null,
    paidAt: null,
    voidedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertInvoice(d1, invoice, input.number, lines, client.name);
  return getInvoice(db, userId, id);
}

export async function getInvoice(db: Db, userId: string, id: string) {
  const [rows, lines] = await db.batch([
    db.select().from(invoices).where(and(eq(invoices.id, id), eq(invoices.userId, userId))),
    db.select().from(invoiceLineItems).where(eq(invoiceLineItems.invoiceId, id)).orderBy(asc(invoiceLineItems.position)),
  ]);
  const row = rows[0];
  if (!row) throw notFound('Invoice');
  return { row, lines };
}

export async function listInvoices(db: Db, userId: string, filter: InvoiceFilter & { beforeId?: string }) {
  const conditions: (SQL | undefined)[] = [eq(invoices.userId, userId)];
  if (filter.status === 'overdue') conditions.push(eq(invoices.status, 'open'), lt(invoices.dueDate, todayUtc()));
  else if (filter.status) conditions.push(eq(invoices.status, filter.status));
  if (filter.client_id) conditions.push(eq(invoices.clientId, filter.client_id));
  if (filter.project_id) conditions.push(eq(invoices.projectId, filter.project_id));
  if (filter.issued_from) conditions.push(gte(invoices.issueDate, filter.issued_from));
  if (filter.issued_to) conditions.push(lte(invoices.issueDate, filter.issued_to));
  if (filter.beforeId) conditions.push(lt(invoices.id, filter.beforeId));
  return db
    .select()
    .from(invoices)
    .where(and(...conditions))
    .orderBy(desc(invoices.id))
    .limit(filter.limit + 1);
}

async function draftInvoice(db: Db, userId: string, id: string) {
  const { row } = await getInvoice(db, userId, id);
  if (row.status !== 'draft') throw invalidState(`Invoice ${row.number} is ${row.status}; only drafts can be changed or deleted.`);
  return row;
}

export async function updateInvoice(db: Db, d1: D1Database, userId: string, id: string, input: UpdateInvoiceInput) {
  const current = await draftInvoice(db, userId, id);
  if (input.client_id) await referencedClient(db, userId, input.client_id);
  await assertReferencedProject(db, userId, input.project_id);
  const issueDate = input.issue_date ?? current.issueDate;
  const dueDate = input.due_date ?? current.dueDate;
  if (dueDate < issueDate) throw invalidField('due_date', 'due_date must not be before issue_date.');

  const set: Record<string, unknown> = { issue_date: issueDate, due_date: dueDate, updated_at: nowIso() };
  if (input.client_id !== undefined) set.client_id = input.client_id;
  if (input.project_id !== undefined) set.project_id = input.project_id;
  if (input.currency !== undefined) set.currency = input.currency;
  if (input.number !== undefined) set.number = input.number;
  if (input.notes !== undefined) set.notes = input.notes;
  const replaced = input.line_items ? buildLines(id, input.line_items) : null;
  if (replaced) Object.assign(set, replaced.totals);

  const columns = Object.keys(set);
  const statements = [
    d1
      .prepare(`UPDATE invoices SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ? AND user_id = ? AND status = 'draft'`)
      .bind(...columns.map((c) => set[c] ?? null), id, userId),
  ];
  if (replaced) {
    statements.push(
      d1.prepare("DELETE FROM invoice_line_items WHERE invoice_id = ? AND EXISTS (SELECT 1 FROM invoices WHERE id = ? AND status = 'draft')").bind(id, id),
      ...insertLineStatements(d1, replaced.rows, true),
    );
  }
  let results: D1Result[];
  try {
    results = await d1.batch(statements);
  } catch (err) {
    if (isNumberTaken(err)) throw numberTaken(input.number!);
    throw err;
  }
  if (results[0]!.meta.changes === 0) await draftInvoice(db, userId, id); // lost a race: explains why
  return getInvoice(db, userId, id);
}

export async function deleteInvoice(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.userId, userId), eq(invoices.status, 'draft')))
    .returning({ id: invoices.id });
  if (!deleted.length) await draftInvoice(db, userId, id);
}
