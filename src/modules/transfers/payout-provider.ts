// Where money actually leaves. A provider is called with the transfer id as its idempotency key:
// asked twice about the same transfer, a real provider pays once and answers the same both times.
import type { RecipientValue } from './recipient';

export type PayoutRequest = { idempotencyKey: string; amount: number; currency: string; recipient: RecipientValue; reference: string | null };
export type PayoutResult = { status: 'completed'; payoutId: string } | { status: 'failed'; reason: string };

/** Worth trying again later (a timeout, a 5xx from the provider); anything else thrown is too. */
export class TransientPayoutError extends Error {
  override name = 'TransientPayoutError';
}

export interface PayoutProvider {
  readonly name: string;
  payout(request: PayoutRequest): Promise<PayoutResult>;
}

/**
 * The built-in sandbox: completes every payout, except that a recipient whose name contains "FAIL"
 * is rejected, like a test card number. Deterministic by idempotency key.
 */
export const sandboxProvider: PayoutProvider = {
  name: 'sandbox',
  async payout(request) {
    if (request.recipient.name.includes('FAIL')) {
      return { status: 'failed', reason: 'The recipient\'s bank rejected the payment (sandbox: the name contains FAIL).' };
    }
    return { status: 'completed', payoutId: `po_${request.idempotencyKey.slice(4)}` };
  },
};
