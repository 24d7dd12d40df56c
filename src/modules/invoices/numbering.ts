// Invoice numbers: unique per user, by a UNIQUE index. A default number comes from the user's
// counter, bumped in the same batch as the insert: D1 runs a batch as one transaction, one at a
// time, so twenty racing creations get twenty consecutive numbers. If a default number collides
// with one the user chose by hand, the counter jumps past the highest number in use and the
// creation is tried again.
import { newId } from '../../lib/ids';
import type { LineRow } from './lines';
import { insertLineStatements } from './lines';
import { ApiError } from '../../errors';
import type { InvoiceRow } from './serialize';

const MAX_ATTEMPTS = 3;

export const numberTaken = (number: string) =>
  new ApiError('invoice_number_taken', `You already have an invoice numbered ${number}.`, [{ path: 'number', message: 'Already in use.' }]);

export const isNumberTaken = (err: unknown) => String(err).includes('UNIQUE constraint failed: invoices.user_id, invoices.number');

export async function insertInvoice(
  d1: D1Database,
  invoice: Omit<InvoiceRow, 'number'>,
  explicitNumber: string | undefined,
  lines: LineRow[],
  clientName: string,
): Promise<void> {
  const numberSql = explicitNumber === undefined ? "(SELECT 'INV-' || printf('%06d', invoice_seq) FROM users WHERE id = ?)" : '?';
  const numberParam = explicitNumber ?? invoice.userId;
  const statements = [
    ...(explicitNumber === undefined ? [d1.prepare('UPDATE users SET invoice_seq = invoice_seq + 1 WHERE id = ?').bind(invoice.userId)] : []),
    d1
      .prepare(
        `INSERT INTO invoices (id, user_id, number, status, client_id, project_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, notes, created_at, updated_at)
         VALUES (?, ?, ${numberSql}, 'draft', ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
      )
      .bind(invoice.id, invoice.userId, numberParam, invoice.clientId, invoice.projectId, invoice.currency, invoice.issueDate,
        invoice.dueDate, invoice.subtotal, invoice.tax, invoice.total, invoice.notes, invoice.createdAt, invoice.updatedAt),
    ...insertLineStatements(d1, lines),
    d1
      .prepare(
        `INSERT INTO activities (id, user_id, type, subject_id, summary, occurred_at)
         SELECT ?, ?, 'invoice.created', id, 'Invoice ' || number || ' drafted for ' || ?, ? FROM invoices WHERE id = ?`,
      )
      .bind(newId('activity'), invoice.userId, clientName, invoice.createdAt, invoice.id),
  ];

  for (let attempt = 1; ; attempt++) {
    try {
      await d1.batch(statements);
      return;
    } catch (err) {
      if (!isNumberTaken(err)) throw err;
      if (explicitNumber !== undefined) throw numberTaken(explicitNumber);
      if (attempt >= MAX_ATTEMPTS) throw err;
      // The batch rolled back. Move the counter past every INV- number already in use (hand-picked
      // ones included) and try again; this reads the user's numbers only when a collision happened.
      await d1
        .prepare(
          `UPDATE users SET invoice_seq = max(invoice_seq, (SELECT coalesce(max(CAST(substr(number, 5) AS INTEGER)), 0)
             FROM invoices WHERE user_id = ?1 AND number GLOB 'INV-[0-9][0-9][0-9][0-9][0-9][0-9]*')) WHERE id = ?1`,
        )
        .bind(invoice.userId)
        .run();
    }
  }
}
