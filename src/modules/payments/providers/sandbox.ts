// The sandbox provider: a checkout page the worker serves itself (sandbox-routes.ts), for trying
// online payment with no account. It speaks Stripe's shapes: its events are Checkout Session events
// signed as Stripe signs them, sent to the workspace's own webhook URL, so everything after the
// checkout runs exactly as it does for Stripe. It exists only where PAYMENTS_SANDBOX is "true".
import { randomToken } from '../../../lib/crypto';
import type { PaymentProvider } from './provider';
import { readCheckoutSessionEvent, stripe } from './stripe';

const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The checkout of an attempt: the attempt id after `pat_`, so the page finds the attempt again. */
export const sandboxCheckoutId = (attemptId: string) => `cs_sandbox_${attemptId.slice(4)}`;
export const sandboxPaymentId = (attemptId: string) => `pi_sandbox_${attemptId.slice(4)}`;
export const sandboxCheckoutPath = (attemptId: string) => `/sandbox/checkout/${attemptId}`;

export const sandbox: PaymentProvider = {
  name: 'sandbox',
  signatureHeader: 'Stripe-Signature',

  connect: () => ({ secretKey: null, webhookSecret: `whsec_${randomToken(24)}`, keyLast4: null, testMode: true }),

  checkoutOrigin: (_env, origin) => origin,

  minimumCharge: () => 1,

  // Its events carry Stripe's amounts, so it charges only what Stripe could.
  chargeStep: (currency) => stripe.chargeStep(currency),

  async createCheckout(_env, _secrets, input) {
    return {
      ok: true,
      checkoutId: sandboxCheckoutId(input.attemptId),
      checkoutUrl: `${input.origin}${sandboxCheckoutPath(input.attemptId)}`,
      expiresAt: new Date(Date.now() + CHECKOUT_LIFETIME_MS).toISOString(),
    };
  },

  readEvent: readCheckoutSessionEvent,

  async refund(_env, _secrets, input) {
    return { ok: true, providerRefundId: `re_sandbox_${input.refundId.slice(4)}`, status: 'succeeded' };
  },
};
