// A payment recorded on an invoice: a member records a manual one here (actions.ts), the payments
// module an online one; both show it the same way.
import type { payments } from '../../db/schema';

export type PaymentRow = typeof payments.$inferSelect;

/** A payment as the API shows it: in lists, and in `data.payment` of `invoice.payment_recorded`. */
export const serializePayment = (row: PaymentRow, amountRefunded = 0) => ({
  id: row.id,
  invoice_id: row.invoiceId,
  amount: row.amount,
  tax: row.tax,
  currency: row.currency,
  paid_on: row.paidOn,
  method: row.method,
  reference: row.reference,
  source: row.source,
  provider: row.provider as 'stripe' | 'sandbox' | null,
  provider_payment_id: row.providerPaymentId,
  amount_refunded: amountRefunded,
  created_at: row.createdAt,
});
