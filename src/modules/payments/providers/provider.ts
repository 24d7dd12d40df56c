// The door every payment provider implements (§16): connect (check and keep its settings), create a
// checkout for an amount, verify and read a webhook, refund. The rest of the module speaks only
// this; a provider file reads like its provider's documentation.
import type { ProviderName } from '../schemas';

export type { ProviderName };

/** The system actor of what a payment provider reports. */
export const PAYMENTS_JOB = 'payments';

/** The settings a provider acts with, opened from their sealed form for one call. */
export type ProviderSecrets = { secretKey: string | null; webhookSecret: string };

/** What a PUT stores: the secrets to seal and what may be shown. */
export type Connection = { secretKey: string | null; webhookSecret: string; keyLast4: string | null; testMode: boolean };

export type CheckoutInput = {
  attemptId: string;
  invoiceId: string;
  workspaceId: string;
  invoiceNumber: string;
  /** In the currency's ISO minor unit, as everywhere in the API. */
  amount: number;
  currency: string;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  /** The worker's own origin (the sandbox serves its checkout there). */
  origin: string;
  testMode: boolean;
};

export type CheckoutResult = { ok: true; checkoutUrl: string; checkoutId: string; expiresAt: string | null } | { ok: false; message: string };

/** A provider event, read after its signature was checked. Amounts are in the ISO minor unit. */
export type ProviderEvent =
  | { kind: 'paid'; eventId: string; attemptId: string; checkoutId: string; paymentId: string; amount: number; currency: string; method: string; payerEmail: string | null }
  | { kind: 'pending' | 'failed' | 'expired'; eventId: string; attemptId: string; checkoutId: string }
  | { kind: 'ignored'; eventId: string; type: string }
  /** A refund changed at the provider: `refundId` is ours when the provider carries it back (metadata). */
  | { kind: 'refund'; eventId: string; refundId: string | null; providerRefundId: string; status: 'pending' | 'succeeded' | 'failed' };

/** The refund's own id is its Idempotency-Key at the provider: asking again for one refund never makes two. */
export type RefundInput = { refundId: string; providerPaymentId: string; amount: number; currency: string };
/**
 * `definitive`: the provider answered, and made no refund (a 4xx, an amount it cannot take). Otherwise
 * (unreachable, a 5xx, an answer that cannot be read) it may have made one: only asking again with the
 * same key tells.
 */
export type RefundResult = { ok: true; providerRefundId: string; status: 'pending' | 'succeeded' | 'failed' } | { ok: false; message: string; definitive: boolean };

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Checks the settings a PUT sends; throws a 422 naming the field that is wrong. */
  connect(input: { secret_key?: string; webhook_secret?: string }): Connection;
  /** The origin the checkout page is served from, for the hosted page's CSP `form-action` (`origin` is the page's own). */
  checkoutOrigin(env: Env, origin: string): string;
  /** The least the provider charges in `currency`, in its ISO minor unit. */
  minimumCharge(currency: string): number;
  /** The amounts the provider can charge are multiples of this (ISO minor unit). */
  chargeStep(currency: string): number;
  createCheckout(env: Env, secrets: ProviderSecrets, input: CheckoutInput): Promise<CheckoutResult>;
  /** The event in a body whose signature `verify` accepted; undefined when it is not an event. */
  readEvent(body: string): ProviderEvent | undefined;
  /** The header that carries the signature of a webhook. */
  readonly signatureHeader: string;
  refund(env: Env, secrets: ProviderSecrets, input: RefundInput): Promise<RefundResult>;
}
