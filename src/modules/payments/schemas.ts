// Getting paid online (§16): the provider setting, payment attempts, payments as listed, refunds.
import { z } from '@hono/zod-openapi';
import { idSchema, oneOfBy, pageOf, text, timestampSchema } from '../../lib/schemas';

const MAX_REASON = 500;

export const PROVIDERS = ['stripe', 'sandbox'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** Stripe's secret (or restricted) keys and webhook signing secrets, as Stripe issues them. */
export const STRIPE_SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,200}$/;
export const STRIPE_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,200}$/;

export const ConnectProviderBody = oneOfBy('provider', 'a payment provider', [
    z.strictObject({
      provider: z.literal('stripe'),
      secret_key: z.string().regex(STRIPE_SECRET_KEY, 'A Stripe secret key (sk_live_… or sk_test_…, or a restricted rk_… key).').openapi({ description: 'Your Stripe secret key (`sk_live_…`, `sk_test_…`, or a restricted `rk_…` key allowed to write Checkout Sessions and Refunds). Stored encrypted; never shown again.' }),
      webhook_secret: z.string().regex(STRIPE_WEBHOOK_SECRET, 'The signing secret of the Stripe webhook endpoint (whsec_…).').openapi({ description: 'The signing secret (`whsec_…`) of the Stripe webhook endpoint you point at `webhook_url`. Stored encrypted; never shown again.' }),
    }),
    z.strictObject({ provider: z.literal('sandbox') }),
  ])
  .openapi('ConnectPaymentProvider');

export const PaymentProvider = z
  .object({
    provider: z.enum(PROVIDERS).nullable(),
    connected: z.boolean(),
    key_last4: z.string().nullable().openapi({ description: 'The last four characters of the Stripe key, to tell keys apart; null for the sandbox.' }),
    webhook_url: z.string().nullable().openapi({ description: 'Where the provider sends its events: register it at Stripe (Developers → Webhooks) for the checkout.session events.' }),
    test_mode: z.boolean().openapi({ description: 'True for a Stripe test key and for the sandbox: no real money moves.' }),
  })
  .openapi('PaymentProvider');

export const AttemptStatus = z.enum(['open', 'succeeded', 'failed', 'expired', 'canceled']);

export const PaymentAttempt = z
  .object({
    id: idSchema('paymentAttempt'),
    invoice_id: idSchema('invoice'),
    amount: z.number().int(),
    currency: z.string(),
    provider: z.enum(PROVIDERS),
    status: AttemptStatus,
    checkout_url: z.string().nullable().openapi({ description: 'The provider\'s checkout page while the attempt is open.' }),
    failure_message: z.string().nullable().openapi({ description: 'Why the checkout could not be made or the payment failed, as the client read it.' }),
    expires_at: timestampSchema.nullable(),
    created_at: timestampSchema,
  })
  .openapi('PaymentAttempt');

export const PaymentAttemptPage = pageOf(PaymentAttempt);

export const Payment = z
  .object({
    id: idSchema('payment'),
    invoice_id: idSchema('invoice'),
    amount: z.number().int().openapi({ description: 'Minor units of the invoice currency.', example: 150000 }),
    tax: z.number().int().nullable().openapi({ description: 'The tax share of `amount`: amount × invoice tax / invoice total, half away from zero (what the dashboard counts as `tax_collected`).', example: 23950 }),
    currency: z.string().openapi({ example: 'EUR' }),
    paid_on: z.string().openapi({ format: 'date', example: '2026-11-22' }),
    method: z.string().nullable().openapi({ example: 'card' }),
    reference: z.string().nullable(),
    source: z.enum(['manual', 'online']).openapi({ description: '`manual`: recorded by a member; `online`: received through the payment provider.' }),
    provider: z.enum(PROVIDERS).nullable(),
    provider_payment_id: z.string().nullable().openapi({ description: 'The provider\'s payment (Stripe: the PaymentIntent id).' }),
    amount_refunded: z.number().int().openapi({ description: 'Refunds of this payment that did not fail.' }),
    created_at: timestampSchema,
    fx: z
      .object({ rate_at_issue: z.number(), rate_at_payment: z.number(), difference: z.number().int() })
      .nullable()
      .optional()
      .openapi({ description: 'In lists, in another currency than `default_currency`: its rates (per unit) at the invoice\'s issue date and `paid_on`, and the difference in it.' }),
  })
  .openapi('Payment');

export const PaymentPage = pageOf(Payment);

export const RefundBody = z
  .strictObject({
    amount: z.number().int().min(1).optional().openapi({ description: 'In minor units; defaults to what is not yet refunded of the payment, and may not exceed it (422).', example: 5000 }),
    reason: text(MAX_REASON).nullish(),
  })
  .openapi('CreateRefund');

export const Refund = z
  .object({
    id: idSchema('refund'),
    payment_id: idSchema('payment'),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    provider_refund_id: z.string().nullable().openapi({ description: 'The provider\'s refund (Stripe: `re_…`); null for a manual payment.' }),
    reason: z.string().nullable(),
    refunded_on: z.string().openapi({ description: 'The day it was made, in the workspace\'s time zone.' }),
    created_at: timestampSchema,
  })
  .openapi('Refund');

export type ConnectProviderInput = z.infer<typeof ConnectProviderBody>;
export type RefundInput = z.infer<typeof RefundBody>;
