// Where money actually leaves. A provider is called with the transfer id as its idempotency key:
// asked twice about the same transfer, a real provider pays once and answers the same both times.
// The sandbox answers at once; a real provider (providers/wise.ts) accepts the payout and reports
// its end later (a webhook, or the cron asking), so its answer may be `submitted`.
import type { RecipientValue } from './recipient';

export type PayoutRequest = {
  idempotencyKey: string;
  sourceCurrency: string;
  sourceAmount: number;
  amount: number;
  currency: string;
  /** The whole recipient, account number included: for the provider's request only, never logged. */
  recipient: RecipientValue;
  reference: string | null;
  /** What an earlier delivery already got from the provider, so a retry resumes instead of starting over. */
  providerTransferId?: string | null;
  providerStatus?: string | null;
  /** Called as soon as the provider holds the transfer, before it is funded. */
  onCreated?: (created: Submitted) => Promise<void>;
};

/** The provider's own terms, in our units: what the transfer records when they differ from our quote. */
export type ProviderTerms = { fee?: number; rate?: string; targetAmount?: number };
export type Submitted = { status: 'submitted'; providerTransferId: string; providerStatus: string } & ProviderTerms;

export type PayoutResult = { status: 'completed'; payoutId: string } | { status: 'failed'; reason: string };

/** Worth trying again later (a timeout, a 5xx from the provider); anything else thrown is too. */
export class TransientPayoutError extends Error {
  override name = 'TransientPayoutError';
}

export interface PayoutProvider {
  readonly name: string;
  payout(request: PayoutRequest): Promise<PayoutResult | Submitted>;
}

/**
 * The built-in sandbox, for development only (PAYMENTS_SANDBOX): completes every payout, except
 * that a recipient whose name contains "FAIL" is rejected, like a test card number. Deterministic
 * by idempotency key.
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
