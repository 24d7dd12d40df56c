// The invoice's life: draft → open (send) → paid (payments reaching zero due), or open → void while
// nothing is paid. Each action is one batch whose first statement is a guarded UPDATE; the rows
// after it (payment, activity) are written only if that UPDATE changed the invoice (`changes() = 1`),
// so a lost race writes nothing and is answered with the state that won. (D1 counts rows that
// triggers change in meta.changes, so "did it happen" is changes > 0, not = 1.)
import { ApiError, invalidState } from '../../errors';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso, todayUtc } from '../../lib/time';
import type { PaymentInput } from './schemas';
import { getInvoice } from './service';

/** An activity row whose summary is `before` + the invoice number + `after`, written only if the
 *  previous statement of the batch changed a row. */
function activityIfChanged(d1: D1Database, userId: string, invoiceId: string, type: string, at: string, before: string, after = '') {
  return d1
    .prepare(
      `INSERT INTO activities (id, user_id, type, subject_id, summary, occurred_at)
       SELECT ?, ?, ?, id, ? || number || ?, ? FROM invoices WHERE id = ? AND changes() = 1`,
    )
    .bind(newId('activity'), userId, type, before, after, at, invoiceId);
}

async function refuse(db: Db, userId: string, id: string, action: string): Promise<never> {
  const { row } = await getInvoice(db, userId, id); // 404 if it is not the caller's
  throw invalidState(`Cannot ${action} invoice ${row.number}: it is ${row.status}${row.status === 'open' && row.amountPaid > 0 ? ' with payments recorded' : ''}.`);
}

export async function sendInvoice(db: Db, d1: D1Database, userId: string, id: string) {
  const now = nowIso();
  const [updated] = await d1.batch([
    d1
      // Nothing to collect on a zero total: it is settled the moment it is sent, never overdue.
      .prepare(
        `UPDATE invoices SET status = CASE WHEN total = 0 THEN 'paid' ELSE 'open' END,
           paid_at = CASE WHEN total = 0 THEN ?1 END, sent_at = ?1, updated_at = ?1
         WHERE id = ?2 AND user_id = ?3 AND status = 'draft'`,
      )
      .bind(now, id, userId),
    activityIfChanged(d1, userId, id, 'invoice.sent', now, 'Invoice ', ' sent'),
  ]);
  if (updated!.meta.changes === 0) await refuse(db, userId, id, 'send');
  return getInvoice(db, userId, id);
}

export async function voidInvoice(db: Db, d1: D1Database, userId: string, id: string) {
  const now = nowIso();
  const [updated] = await d1.batch([
    d1
      .prepare("UPDATE invoices SET status = 'void', voided_at = ?, updated_at = ? WHERE id = ? AND user_id = ? AND status = 'open' AND amount_paid = 0")
      .bind(now, now, id, userId),
    activityIfChanged(d1, userId, id, 'invoice.voided', now, 'Invoice ', ' voided'),
  ]);
  if (updated!.meta.changes === 0) await refuse(db, userId, id, 'void');
  return getInvoice(db, userId, id);
}

export async function recordPayment(db: Db, d1: D1Database, userId: string, id: string, input: PaymentInput) {
  const now = nowIso();
  const amount = input.amount;
  const [updated] = await d1.batch([
    // Open only, and never past the total: amount_paid + amount ≤ total is checked in the same statement.
    d1
      .prepare(
        `UPDATE invoices SET amount_paid = amount_paid + ?1,
           status = CASE WHEN amount_paid + ?1 = total THEN 'paid' ELSE status END,
           paid_at = CASE WHEN amount_paid + ?1 = total THEN ?2 ELSE paid_at END,
           updated_at = ?2
         WHERE id = ?3 AND user_id = ?4 AND status = 'open' AND amount_paid + ?1 <= total`,
      )
      .bind(amount, now, id, userId),
    d1
      .prepare(
        `INSERT INTO payments (id, user_id, invoice_id, amount, currency, paid_on, method, reference, created_at)
         SELECT ?, user_id, id, ?, currency, ?, ?, ?, ? FROM invoices WHERE id = ? AND changes() = 1`,
      )
      .bind(newId('payment'), amount, input.paid_on ?? todayUtc(), input.method ?? null, input.reference ?? null, now, id),
    activityIfChanged(d1, userId, id, 'invoice.payment_recorded', now, `Payment of ${amount} (minor units) recorded on invoice `),
    d1
      .prepare(
        `INSERT INTO activities (id, user_id, type, subject_id, summary, occurred_at)
         SELECT ?, ?, 'invoice.paid', id, 'Invoice ' || number || ' paid in full', ? FROM invoices
         WHERE id = ? AND status = 'paid' AND paid_at = ?`,
      )
      .bind(newId('activity'), userId, now, id, now),
  ]);
  if (updated!.meta.changes > 0) return getInvoice(db, userId, id);

  const { row } = await getInvoice(db, userId, id);
  if (row.status !== 'open') await refuse(db, userId, id, 'record a payment on');
  throw new ApiError('validation_failed', 'The request is not valid.', [
    { path: 'amount', message: `At most the amount due (${row.total - row.amountPaid}).` },
  ]);
}
