import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { invoices } from './invoices';
import { users, workspaceColumn } from './workspaces';

export const payments = sqliteTable(
  'payments',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    paidOn: text('paid_on').notNull(),
    method: text('method'),
    reference: text('reference'),
    createdAt: text('created_at').notNull(),
    // §16: typed in by a member (manual) or received through a payment provider (online). The
    // provider's payment id (Stripe: the PaymentIntent) is unique: an event delivered twice, late or
    // out of order records the payment at most once.
    source: text('source', { enum: ['manual', 'online'] }).notNull().default('manual'),
    provider: text('provider'),
    providerPaymentId: text('provider_payment_id'),
    // The tax share of `amount`: amount × invoice tax / invoice total, half away from zero (the
    // dashboard's tax_collected). Set with the payment; a trigger fills it where a writer left it null.
    tax: integer('tax'),
  },
  (t) => [
    index('payments_workspace_paid_on_idx').on(t.workspaceId, t.paidOn, t.currency, t.amount),
    index('payments_invoice_idx').on(t.invoiceId),
    // §22's profit and loss: each day's payments per currency, their tax share and invoice, from the index alone.
    index('payments_workspace_paid_on_net_idx').on(t.workspaceId, t.paidOn, t.currency, t.amount, t.tax, t.invoiceId),
    uniqueIndex('payments_provider_payment_uq').on(t.providerPaymentId),
    check('payments_amount_positive', sql`${t.amount} > 0`),
  ],
);

// A workspace's payment provider (§16): at most one connected at a time. Secrets are AES-GCM under
// PAYMENTS_ENCRYPTION_KEY (lib/secret-box.ts), never stored or shown in clear. The id is the last
// part of the webhook URL the workspace registers at its provider.
export const paymentProviders = sqliteTable(
  'payment_providers',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    secretKeySealed: text('secret_key_sealed'),
    webhookSecretSealed: text('webhook_secret_sealed').notNull(),
    keyLast4: text('key_last4'),
    testMode: integer('test_mode', { mode: 'boolean' }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_providers_workspace_uq').on(t.workspaceId)],
);

// One press of the pay button (§16): a checkout at the provider for an amount. Open until the
// provider reports it paid (succeeded), failed, expired or canceled.
export const paymentAttempts = sqliteTable(
  'payment_attempts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    status: text('status', { enum: ['open', 'succeeded', 'failed', 'expired', 'canceled'] }).notNull(),
    checkoutUrl: text('checkout_url'),
    /** The provider's checkout (Stripe: the Checkout Session id). */
    providerCheckoutId: text('provider_checkout_id'),
    /** Why it failed, in words the client can read on the page. */
    failureMessage: text('failure_message'),
    expiresAt: text('expires_at'),
    ...timestamps,
  },
  (t) => [
    index('payment_attempts_invoice_idx').on(t.invoiceId, t.id),
    check('payment_attempts_amount_positive', sql`${t.amount} > 0`),
  ],
);

// Money returned on a payment (§16): through the provider for an online payment, recorded for a
// manual one. A refund that did not fail counts against amount_paid and against `collected` on
// the day it was made (triggers keep the monthly roll-up).
export const refunds = sqliteTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    paymentId: text('payment_id').notNull().references(() => payments.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    // The tax share it gives back: amount × payment tax ÷ payment amount, half away from zero (lib/money.ts
    // taxShare), so tax_collected follows refunds as collected does.
    tax: integer('tax'),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    providerRefundId: text('provider_refund_id'),
    reason: text('reason'),
    /** The day it was made in the workspace's time zone. */
    refundedOn: text('refunded_on').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('refunds_payment_idx').on(t.paymentId, t.id),
    index('refunds_workspace_refunded_on_idx').on(t.workspaceId, t.refundedOn, t.currency, t.amount),
    // §22's aged receivables: what was refunded of an invoice by a day.
    index('refunds_invoice_idx').on(t.invoiceId, t.refundedOn),
    // The cron's ask-again of refunds the provider never answered reads only these few rows.
    index('refunds_unanswered_idx').on(t.createdAt).where(sql`${t.status} = 'pending' AND ${t.providerRefundId} IS NULL`),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
  ],
);
