// Payments, attempts and refunds as the API returns them, and what money in or out does to an
// invoice's amounts and state.
import type { paymentAttempts, refunds } from '../../db/schema';
import type { InvoiceRow } from '../invoices/serialize';

// Invoices record manual payments and write `invoice.payment_recorded` with one (invoices/payment.ts).
export { type PaymentRow, serializePayment } from '../invoices/payment';

export type AttemptRow = typeof paymentAttempts.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;

export const serializeAttempt = (row: AttemptRow) => ({
  id: row.id,
  invoice_id: row.invoiceId,
  amount: row.amount,
  currency: row.currency,
  provider: row.provider,
  status: row.status,
  checkout_url: row.status === 'open' ? row.checkoutUrl : null,
  failure_message: row.failureMessage,
  expires_at: row.expiresAt,
  created_at: row.createdAt,
});

export const serializeRefund = (row: RefundRow) => ({
  id: row.id,
  payment_id: row.paymentId,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  provider_refund_id: row.providerRefundId,
  reason: row.reason,
  refunded_on: row.refundedOn,
  created_at: row.createdAt,
});

/**
 * The invoice after `delta` minor units come in (positive) or go back (negative). amount_paid
 * stays within the total; what is beyond it is overpaid_amount. An open invoice with nothing left
 * due is paid; a paid one with something due again is open. A void invoice keeps its state: money
 * that reaches it is all surplus, to be refunded.
 */
export function afterMoney(row: InvoiceRow, delta: number, now: string): Partial<InvoiceRow> {
  if (row.status === 'void' || row.status === 'draft') {
    const over = row.overpaidAmount + delta;
    return { overpaidAmount: Math.max(0, over), amountPaid: Math.max(0, row.amountPaid + Math.min(0, over)), updatedAt: now };
  }
  // What payments can settle: the total less what credit notes took off it (§17).
  const payable = row.total - row.creditedAmount;
  const net = row.amountPaid + row.overpaidAmount + delta;
  const amountPaid = Math.min(Math.max(net, 0), payable);
  const set: Partial<InvoiceRow> = { amountPaid, overpaidAmount: Math.max(0, net - payable), updatedAt: now };
  if (row.status === 'open' && amountPaid === payable) Object.assign(set, { status: 'paid', paidAt: now });
  if (row.status === 'paid' && amountPaid < payable) Object.assign(set, { status: 'open', paidAt: null });
  return set;
}
