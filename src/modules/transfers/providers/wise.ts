// Wise's public API (https://docs.wise.com), as a payout provider: a quote for the amount
// (POST /v3/profiles/{profile}/quotes), the recipient account (POST /v1/accounts), the transfer
// (POST /v1/transfers, `customerTransactionId` = our transfer id written as a UUID: Wise answers a
// repeated one with the transfer it already made, so a retried message never pays twice), and its
// funding from the profile's balance (POST /v3/profiles/{profile}/transfers/{id}/payments). Wise's
// amounts are decimals in major units; ours are integer minor units.
// Wise's answer on its way back: 5xx, 429, a timeout or no answer are transient (the queue retries);
// any other refusal fails the transfer with Wise's own message.
import { exponentOf } from '../../../lib/currencies';
import { idAsUuid } from '../../../lib/ids';
import { decimalToRatio, fromScaledInteger, ratioToDecimal, toScaledInteger } from '../../../lib/money';
import { callProvider } from '../../../lib/provider-requests';
import type { PayoutProvider, PayoutRequest, ProviderTerms, Submitted } from '../payout-provider';
import { TransientPayoutError } from '../payout-provider';
import { RATE_DECIMALS } from '../quote';

export type WiseSettings = { apiBase: string; token: string; profileId: string };

/** A Wise transfer waits in this state until it is funded. */
export const AWAITING_FUNDS = 'incoming_payment_waiting';

/** Wise's end states, and what each means for our transfer (§6). */
export function wiseEnding(state: string): { status: 'completed' } | { status: 'failed'; reason: string } | null {
  switch (state) {
    case 'outgoing_payment_sent':
      return { status: 'completed' };
    case 'cancelled':
      return { status: 'failed', reason: 'Wise cancelled the transfer (cancelled).' };
    case 'funds_refunded':
      return { status: 'failed', reason: 'Wise could not complete the transfer and refunded the money to the balance (funds_refunded).' };
    case 'bounced_back':
      return { status: 'failed', reason: 'The recipient\'s bank sent the payment back (bounced_back).' };
    default:
      return null;
  }
}

/** Wise refused: the transfer fails with this reason. */
class WiseRefusal extends Error {}

/**
 * Wise's refusal without the whole account number or the token, should Wise's message echo what it
 * was sent (as "… is not a valid IBAN"): the reason is shown in reads, events and webhooks. Each
 * is matched with any spacing Wise may have put in and left as its last four characters.
 */
export function withoutSecrets(text: string, secrets: string[]): string {
  return secrets
    .filter((secret) => secret.length > 4)
    .reduce((out, secret) => {
      const spaced = [...secret.replace(/\s/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*');
      return out.replace(new RegExp(spaced, 'gi'), `…${secret.slice(-4)}`);
    }, text);
}

const secretsOf = (settings: WiseSettings, request: PayoutRequest) => [
  settings.token,
  'iban' in request.recipient.account ? request.recipient.account.iban : request.recipient.account.account_number,
];

type Json = Record<string, unknown>;

function wiseMessage(body: Json | undefined): string | undefined {
  const errors = body?.errors;
  if (Array.isArray(errors) && errors[0] && typeof errors[0] === 'object') {
    const first = errors[0] as Json;
    if (typeof first.message === 'string') return first.message;
  }
  return typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : undefined;
}

async function wise(settings: WiseSettings, method: string, path: string, body?: unknown): Promise<Json> {
  const answer = await callProvider(`${settings.apiBase}${path}`, {
    method,
    headers: { Authorization: `Bearer ${settings.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (answer.ok) return answer.body;
  const step = `${method} ${path.replace(/\d{3,}/g, '{id}')}`;
  if (answer.status === null || answer.status >= 500 || answer.status === 429 || !answer.body) {
    throw new TransientPayoutError(`Wise did not answer ${step}: ${answer.message}`);
  }
  throw new WiseRefusal(`Wise refused the transfer (${step}, ${answer.status}): ${wiseMessage(answer.body) ?? 'no reason given'}`);
}

const major = (amount: number, currency: string) => fromScaledInteger(amount, exponentOf(currency));

/** A Wise decimal in a currency's minor units; more digits than the currency has round half up. */
function minor(value: unknown, currency: string): number | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const exponent = exponentOf(currency);
  return toScaledInteger(value, exponent) ?? Math.round(Number(value) * 10 ** exponent);
}

function rateOf(value: unknown): string | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  try {
    return ratioToDecimal(decimalToRatio(value), RATE_DECIMALS);
  } catch {
    return undefined;
  }
}

/** The recipient account in Wise's shape: an IBAN, a UK sort code, a US routing number, else a SWIFT code. */
function accountBody(settings: WiseSettings, request: PayoutRequest) {
  const { recipient, currency } = request;
  const base = { currency, profile: Number(settings.profileId), accountHolderName: recipient.name };
  const legalType = 'PRIVATE';
  if ('iban' in recipient.account) return { ...base, type: 'iban', details: { legalType, iban: recipient.account.iban } };
  const { account_number: accountNumber, bank_code: bankCode } = recipient.account;
  if (currency === 'GBP') return { ...base, type: 'sort_code', details: { legalType, sortCode: bankCode, accountNumber } };
  if (currency === 'USD') return { ...base, type: 'aba', details: { legalType, abartn: bankCode, accountNumber, accountType: 'CHECKING' } };
  return { ...base, type: 'swift_code', details: { legalType, swiftCode: bankCode, accountNumber } };
}

/** Wise's fee and rate, from the quote's option for paying in from the balance. */
function quoteTerms(quote: Json, request: PayoutRequest): ProviderTerms {
  const options = Array.isArray(quote.paymentOptions) ? (quote.paymentOptions as Json[]) : [];
  const option = options.find((o) => o.payIn === 'BALANCE' && (!quote.payOut || o.payOut === quote.payOut)) ?? options.find((o) => o.payIn === 'BALANCE');
  const fee = option?.fee && typeof option.fee === 'object' ? (option.fee as Json).total : undefined;
  return {
    fee: minor(fee, request.sourceCurrency),
    rate: rateOf(quote.rate),
    targetAmount: minor(option?.targetAmount ?? quote.targetAmount, request.currency),
  };
}

export function wiseProvider(settings: WiseSettings): PayoutProvider & { transferState(providerTransferId: string): Promise<string> } {
  const profile = encodeURIComponent(settings.profileId);

  async function create(request: PayoutRequest): Promise<Submitted> {
    const quote = await wise(settings, 'POST', `/v3/profiles/${profile}/quotes`, {
      sourceCurrency: request.sourceCurrency,
      targetCurrency: request.currency,
      sourceAmount: major(request.sourceAmount, request.sourceCurrency),
      targetAmount: null,
      payOut: 'BANK_TRANSFER',
      preferredPayIn: 'BALANCE',
    });
    const account = await wise(settings, 'POST', '/v1/accounts', accountBody(settings, request));
    const transfer = await wise(settings, 'POST', '/v1/transfers', {
      targetAccount: account.id,
      quoteUuid: quote.id,
      customerTransactionId: idAsUuid(request.idempotencyKey),
      details: { reference: request.reference ?? '' },
    });
    if (transfer.id === undefined || transfer.id === null) throw new TransientPayoutError('Wise answered POST /v1/transfers without an id');
    const terms = quoteTerms(quote, request);
    const created: Submitted = {
      status: 'submitted',
      providerTransferId: String(transfer.id),
      providerStatus: typeof transfer.status === 'string' ? transfer.status : AWAITING_FUNDS,
      ...terms,
      rate: rateOf(transfer.rate) ?? terms.rate,
      targetAmount: minor(transfer.targetValue, request.currency) ?? terms.targetAmount,
    };
    await request.onCreated?.(created);
    return created;
  }

  async function transferState(providerTransferId: string): Promise<string> {
    const transfer = await wise(settings, 'GET', `/v1/transfers/${encodeURIComponent(providerTransferId)}`);
    if (typeof transfer.status !== 'string') throw new TransientPayoutError('Wise answered GET /v1/transfers/{id} without a status');
    return transfer.status;
  }

  return {
    name: 'wise',
    async payout(request) {
      try {
        // A retry after Wise made the transfer asks Wise where it stands before funding it: the
        // funding's answer may have been lost after Wise took the money.
        const created: Submitted = request.providerTransferId
          ? { status: 'submitted', providerTransferId: request.providerTransferId, providerStatus: await transferState(request.providerTransferId) }
          : await create(request);
        if (created.providerStatus !== AWAITING_FUNDS) return created; // funded by an earlier delivery
        const funding = await wise(settings, 'POST', `/v3/profiles/${profile}/transfers/${encodeURIComponent(created.providerTransferId)}/payments`, { type: 'BALANCE' });
        if (funding.status !== 'COMPLETED') {
          return { status: 'failed', reason: `Wise did not fund the transfer from the balance (${String(funding.errorCode ?? funding.status ?? 'no reason given')}); no money was sent.` };
        }
        return { ...created, providerStatus: 'processing' };
      } catch (err) {
        if (err instanceof WiseRefusal) return { status: 'failed', reason: withoutSecrets(err.message, secretsOf(settings, request)) };
        throw err;
      }
    },
    transferState,
  };
}
