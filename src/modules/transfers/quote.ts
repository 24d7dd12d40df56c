// The price of a transfer, to the minor unit, from the cached rates:
//   fee    = ceil(source_amount × fee_bps / 10 000) + the source-currency equivalent of the fixed USD
//            fee, rounded up;
//   rate   = target per source, rounded half away from zero to 10 decimals, and shown as used;
//   target = (source_amount − fee) × rate, rounded down.
import { config } from '../../config';
import { invalidField } from '../../errors';
import { convertMinor, crossRate, decimalToRatio, divCeil, ratioToDecimal } from '../../lib/money';
import { isStale, ratesUnavailable, type RatesSnapshot } from '../rates/snapshot';

export const RATE_DECIMALS = 10;

export type Pricing = { feeBps: number; fixedFeeUsdCents: number };
export type Quote = { fee: number; rate: string; rateAsOf: string; targetAmount: number };

export function pricingFrom(env: Env): Pricing {
  const { TRANSFER_FEE_BPS, TRANSFER_FIXED_FEE_USD_CENTS } = config(env);
  return { feeBps: TRANSFER_FEE_BPS, fixedFeeUsdCents: TRANSFER_FIXED_FEE_USD_CENTS };
}

export function quoteTransfer(
  snapshot: RatesSnapshot | null,
  pricing: Pricing,
  input: { source_currency: string; target_currency: string; source_amount: number },
  now = Date.now(),
): Quote {
  if (!snapshot) throw ratesUnavailable('No exchange rates are available yet; transfers are paused until they arrive.');
  // §1: a currency the rates do not contain is the request's fault, like any money record in it
  // (422 naming the field); waiting would not help, so it is not a 503.
  for (const field of ['source_currency', 'target_currency'] as const) {
    const code = input[field];
    if (code !== 'USD' && snapshot.rates[code] === undefined) {
      throw invalidField(field, `No exchange rate is published for ${code}, so no transfer can be priced in it; use another currency.`);
    }
  }
  // No money moves on stale rates (published more than 36 hours ago).
  if (isStale(snapshot, now)) throw ratesUnavailable('Exchange rates were published more than 36 hours ago; transfers are paused until they refresh.');
  const percentFee = Number(divCeil(BigInt(input.source_amount) * BigInt(pricing.feeBps), 10_000n));
  const fixedFee = convertMinor(pricing.fixedFeeUsdCents, 'USD', input.source_currency, crossRate(snapshot.rates, 'USD', input.source_currency), 'up');
  const fee = percentFee + fixedFee;
  if (input.source_amount <= fee) {
    throw invalidField('source_amount', `Must be more than the fee of ${fee} (minor units of ${input.source_currency}).`);
  }
  const rate = ratioToDecimal(crossRate(snapshot.rates, input.source_currency, input.target_currency), RATE_DECIMALS);
  const targetAmount = convertMinor(input.source_amount - fee, input.source_currency, input.target_currency, decimalToRatio(rate), 'down');
  // No transfer pays out nothing: a rate that rounds to zero, or what is left after the fee worth
  // less than one minor unit of the target, is refused before any money moves.
  if (targetAmount < 1) {
    throw invalidField('source_amount', `After the fee of ${fee}, this pays out less than one minor unit of ${input.target_currency}; send more.`);
  }
  return { fee, rate, rateAsOf: snapshot.as_of, targetAmount };
}
