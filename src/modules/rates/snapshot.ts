// The cached exchange-rate snapshot: units of each currency per 1 USD, as the upstream published
// them. KV holds the latest good one under a namespaced, versioned key; requests only read it.
import { ApiError } from '../../errors';
import { convertMinor, crossRate } from '../../lib/money';

export const RATES_KV_KEY = 'rates:v1:USD';
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export type RatesSnapshot = {
  base: 'USD';
  rates: Record<string, number>;
  /** When the upstream says the rates were published. */
  as_of: string;
  /** When we fetched them. */
  fetched_at: string;
  /** Where they came from: the upstream's host, or "sample" for the local seed. */
  source: string;
};

export async function readRatesSnapshot(kv: KVNamespace): Promise<RatesSnapshot | null> {
  return kv.get<RatesSnapshot>(RATES_KV_KEY, 'json');
}

export function isStale(snapshot: RatesSnapshot, now = Date.now()): boolean {
  return now - Date.parse(snapshot.fetched_at) > STALE_AFTER_MS;
}

export const ratesUnavailable = (why = 'No exchange rates are available yet; try again shortly.') =>
  new ApiError('rates_unavailable', why);

/**
 * `amount` (minor units of `from`) in minor units of `to` at the snapshot's rates, rounded half away
 * from zero. Same currency needs no rates; otherwise a missing snapshot or rate is a 503.
 */
export function convertAtSnapshot(snapshot: RatesSnapshot | null, amount: number, from: string, to: string): number {
  if (from === to) return amount;
  if (!snapshot) throw ratesUnavailable();
  for (const code of [from, to]) {
    if (code !== 'USD' && snapshot.rates[code] === undefined) throw ratesUnavailable(`No exchange rate for ${code}.`);
  }
  return convertMinor(amount, from, to, crossRate(snapshot.rates, from, to));
}
