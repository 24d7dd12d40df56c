// Stripe, over its REST API with fetch (no SDK: see the README): Checkout Sessions to take a payment,
// Refunds to return one, and the events of a Checkout Session, signed in the `Stripe-Signature`
// header. Request bodies are form-encoded, as Stripe's API takes them; the API version is pinned
// so the shapes below stay the shapes Stripe sends.
import { config } from '../../../config';
import { invalidField } from '../../../errors';
import { exponentOf, isCurrency } from '../../../lib/currencies';
import { callProvider, idempotencyHeaders } from '../../../lib/provider-requests';
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } from '../schemas';
import type { CheckoutInput, PaymentProvider, ProviderEvent, ProviderSecrets, RefundInput } from './provider';

export const STRIPE_VERSION = '2024-06-20';

// Stripe's minor unit is ISO's except for these (https://docs.stripe.com/currencies): zero-decimal
// currencies take whole units; the three-decimal ones take thousandths whose last digit is 0; ISK
// is two-decimal in the API but only whole krónur are charged (multiples of 100).
const ZERO_DECIMAL = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));
const stripeExponent = (currency: string) => (ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2);
/** Stripe amounts must be multiples of this, in Stripe's unit. */
const stripeGranularity = (currency: string) => (THREE_DECIMAL.has(currency) ? 10 : currency === 'ISK' ? 100 : 1);
// Stripe's minimum charge, in the ISO minor unit, where it is not about half a unit of the currency.
const MINIMUM: Record<string, number> = { GBP: 30, JPY: 50, HKD: 400, MXN: 1000, DKK: 250, NOK: 300, SEK: 300, CZK: 1500, HUF: 17500, PLN: 200, RON: 200, BGN: 100, INR: 5000, THB: 1000 };

const pow10 = (n: number) => 10 ** n;

/** An ISO minor-unit amount in Stripe's unit; undefined when Stripe cannot charge exactly that. */
export function toStripeAmount(amount: number, currency: string): number | undefined {
  const iso = exponentOf(currency);
  const stripe = stripeExponent(currency);
  const value = stripe >= iso ? amount * pow10(stripe - iso) : amount / pow10(iso - stripe);
  return Number.isInteger(value) && value % stripeGranularity(currency) === 0 ? value : undefined;
}

/** A Stripe amount in the ISO minor unit. */
export function fromStripeAmount(amount: number, currency: string): number {
  const iso = exponentOf(currency);
  const stripe = stripeExponent(currency);
  return stripe >= iso ? Math.round(amount / pow10(stripe - iso)) : amount * pow10(iso - stripe);
}

const form = (fields: Record<string, string | number | null | undefined>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== null && value !== undefined) body.append(name, String(value));
  return body.toString();
};

const headers = (secrets: ProviderSecrets, idempotencyKey: string) => ({
  Authorization: `Bearer ${secrets.secretKey}`,
  'Content-Type': 'application/x-www-form-urlencoded',
  'Stripe-Version': STRIPE_VERSION,
  ...idempotencyHeaders(idempotencyKey),
});

/** Stripe's own words when it refused a request ({error:{message}}), else what went wrong. */
const reason = (answer: { message: string; body?: Record<string, unknown> }) => {
  const error = answer.body?.error as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? `Stripe ${answer.message}: ${error.message.slice(0, 200)}` : `Stripe ${answer.message}`;
};

const str = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

export const stripe: PaymentProvider = {
  name: 'stripe',
  signatureHeader: 'Stripe-Signature',

  connect(input) {
    const key = input.secret_key ?? '';
    if (!STRIPE_SECRET_KEY.test(key)) throw invalidField('secret_key', 'A Stripe secret key (sk_live_… or sk_test_…, or a restricted rk_… key).');
    const webhookSecret = input.webhook_secret ?? '';
    if (!STRIPE_WEBHOOK_SECRET.test(webhookSecret)) throw invalidField('webhook_secret', 'The signing secret of the Stripe webhook endpoint (whsec_…).');
    return { secretKey: key, webhookSecret, keyLast4: key.slice(-4), testMode: key.includes('_test_') };
  },

  checkoutOrigin: (env) => config(env).STRIPE_CHECKOUT_ORIGIN,

  minimumCharge: (currency) => MINIMUM[currency] ?? Math.max(1, pow10(exponentOf(currency)) / 2),

  chargeStep(currency) {
    const iso = exponentOf(currency);
    const stripe = stripeExponent(currency);
    const granularity = stripeGranularity(currency);
    if (stripe < iso) return pow10(iso - stripe) * granularity;
    const scale = pow10(stripe - iso);
    let step = 1;
    while ((step * scale) % granularity !== 0) step++;
    return step;
  },

  async createCheckout(env: Env, secrets: ProviderSecrets, input: CheckoutInput) {
    const unitAmount = toStripeAmount(input.amount, input.currency);
    if (unitAmount === undefined) return { ok: false, message: `Stripe cannot charge this amount in ${input.currency}.` };
    const answer = await callProvider(`${config(env).STRIPE_API_BASE}/v1/checkout/sessions`, {
      method: 'POST',
      headers: headers(secrets, input.attemptId),
      body: form({
        mode: 'payment',
        'line_items[0][quantity]': 1,
        'line_items[0][price_data][currency]': input.currency.toLowerCase(),
        'line_items[0][price_data][unit_amount]': unitAmount,
        'line_items[0][price_data][product_data][name]': `Invoice ${input.invoiceNumber}`,
        client_reference_id: input.invoiceId,
        'metadata[invoice_id]': input.invoiceId,
        'metadata[attempt_id]': input.attemptId,
        'metadata[workspace_id]': input.workspaceId,
        'payment_intent_data[metadata][invoice_id]': input.invoiceId,
        'payment_intent_data[metadata][attempt_id]': input.attemptId,
        customer_email: input.customerEmail,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      }),
    });
    if (!answer.ok) return { ok: false, message: reason(answer) };
    const id = str(answer.body.id);
    const url = str(answer.body.url);
    const expires = answer.body.expires_at;
    if (!id?.startsWith('cs_') || !url?.startsWith('https://')) return { ok: false, message: 'Stripe answered with an unexpected shape.' };
    return { ok: true, checkoutId: id, checkoutUrl: url, expiresAt: typeof expires === 'number' ? new Date(expires * 1000).toISOString() : null };
  },

  readEvent: readStripeEvent,

  async refund(env: Env, secrets: ProviderSecrets, input: RefundInput) {
    const amount = toStripeAmount(input.amount, input.currency);
    if (amount === undefined) return { ok: false, message: `Stripe cannot refund this amount in ${input.currency}.`, definitive: true };
    const answer = await callProvider(`${config(env).STRIPE_API_BASE}/v1/refunds`, {
      method: 'POST',
      headers: headers(secrets, input.refundId),
      body: form({ payment_intent: input.providerPaymentId, amount, 'metadata[refund_id]': input.refundId }),
    });
    // A 4xx is Stripe refusing: no refund was made. No answer, a 5xx or garbage may hide one.
    if (!answer.ok) return { ok: false, message: reason(answer), definitive: answer.status !== null && answer.status >= 400 && answer.status < 500 };
    const id = str(answer.body.id);
    const status = str(answer.body.status);
    if (!id?.startsWith('re_') || !status) return { ok: false, message: 'Stripe answered with an unexpected shape.', definitive: false };
    return { ok: true, providerRefundId: id, status: refundStatus(status) };
  },
};

// requires_action waits on the customer; canceled is a refund that will not happen.
const refundStatus = (status: string) => (status === 'succeeded' ? 'succeeded' : status === 'failed' || status === 'canceled' ? 'failed' : 'pending');

// A refund's later state: `refund.updated` (and `refund.failed`) carry the Refund; the older
// `charge.refund.updated` carries it too. Our refund id rides in its metadata.
const REFUND_EVENTS = new Set(['refund.updated', 'refund.failed', 'charge.refund.updated']);

/** The events Stripe sends a workspace's webhook: a Checkout Session's or a Refund's. */
export function readStripeEvent(body: string): ProviderEvent | undefined {
  const event = readCheckoutSessionEvent(body);
  if (event?.kind !== 'ignored' || !REFUND_EVENTS.has(event.type)) return event;
  const refund = (JSON.parse(body) as { data?: { object?: Record<string, any> } }).data?.object;
  const providerRefundId = str(refund?.id);
  const status = str(refund?.status);
  if (refund?.object !== 'refund' || !providerRefundId?.startsWith('re_') || !status) return event;
  return { kind: 'refund', eventId: event.eventId, refundId: str(refund.metadata?.refund_id) ?? null, providerRefundId, status: refundStatus(status) };
}

/**
 * A Checkout Session event (`{id, type, data:{object: session}}`), as Stripe sends it and as the
 * sandbox copies it. The attempt is the session's metadata; the payment is its PaymentIntent.
 */
export function readCheckoutSessionEvent(body: string): ProviderEvent | undefined {
  let event: { id?: unknown; type?: unknown; data?: { object?: Record<string, any> } };
  try {
    event = JSON.parse(body);
  } catch {
    return undefined;
  }
  const eventId = str(event?.id);
  const type = str(event?.type);
  if (!eventId || !type) return undefined;
  const session = event.data?.object;
  const handled = ['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired'];
  if (!handled.includes(type)) return { kind: 'ignored', eventId, type };
  const attemptId = str(session?.metadata?.attempt_id);
  const checkoutId = str(session?.id);
  if (!session || !attemptId || !checkoutId) return { kind: 'ignored', eventId, type };
  if (type === 'checkout.session.async_payment_failed') return { kind: 'failed', eventId, attemptId, checkoutId };
  if (type === 'checkout.session.expired') return { kind: 'expired', eventId, attemptId, checkoutId };
  // completed: paid now (a card), or pending until an async method (a bank debit) settles.
  if (type === 'checkout.session.completed' && session.payment_status !== 'paid') return { kind: 'pending', eventId, attemptId, checkoutId };
  const currency = str(session.currency)?.toUpperCase();
  const amount = session.amount_total;
  if (!currency || !isCurrency(currency) || !Number.isSafeInteger(amount) || amount <= 0) return { kind: 'ignored', eventId, type };
  return {
    kind: 'paid',
    eventId,
    attemptId,
    checkoutId,
    paymentId: str(session.payment_intent) ?? str(session.payment_intent?.id) ?? checkoutId,
    amount: fromStripeAmount(amount, currency),
    currency,
    method: type === 'checkout.session.async_payment_succeeded' ? 'bank_transfer' : 'card',
    payerEmail: str(session.customer_details?.email) ?? str(session.customer_email) ?? null,
  };
}
