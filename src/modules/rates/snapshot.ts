// The cached exchange-rate snapshot: units of each currency per 1 USD, as the upstream published
// them. KV holds the latest good one under a namespaced, versioned key; requests only read it.
import { ApiError } from '../../errors';
import { convertMinor, convertMinorExact, crossRate } from '../../lib/money';

export const RATES_KV_KEY = 'rates:v1:USD';
/** The major currencies of recent good snapshots, back to one at least 24 hours old (sanity.ts). */
export const RATES_HISTORY_KV_KEY = 'rates:v1:USD:history';
/** Rates the provider published longer ago than this are stale: shown, but no money moves on them. */
export const STALE_AFTER_MS = 36 * 60 * 60 * 1000;

export type RatesSnapshot = {
  base: 'USD';
  rates: Record<string, number>;
  /** When the upstream says the rates were published. */
  as_of: string;
  /** When we fetched them. */
  fetched_at: string;
  /** Where they came from: the upstream's host, or "sample" for the local seed. */
  source: string;
  /** Minor currencies whose new rate looked wrong; they keep their last good rate (sanity.ts). */
  suspect: string[];
};

/** The cached snapshot as stored (snapshots from before `suspect` existed have none). */
export async function readCachedSnapshot(kv: KVNamespace): Promise<RatesSnapshot | null> {
  const stored = await kv.get<Omit<RatesSnapshot, 'suspect'> & { suspect?: string[] }>(RATES_KV_KEY, 'json');
  return stored ? { ...stored, suspect: stored.suspect ?? [] } : null;
}

/** Stale by the provider's own publication time, however recently we fetched it. */
export function isStale(snapshot: RatesSnapshot, now = Date.now()): boolean {
  return now - Date.parse(snapshot.as_of) > STALE_AFTER_MS;
}

/**
 * How long a 503 asks a client to wait (§3: with Retry-After): a first fill is shared by the requests
 * that wait for it, and the cron refreshes every 15 minutes, so a minute is a fair first wait.
 */
export const RATES_RETRY_AFTER_SECONDS = 60;

export const ratesUnavailable = (why = 'No exchange rates are available yet; try again shortly.') =>
  new ApiError('rates_unavailable', why, undefined, { 'Retry-After': String(RATES_RETRY_AFTER_SECONDS) });

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

/** convertAtSnapshot for a sum (a BigInt, exact past 2^53), with the same rules. */
export function convertSumAtSnapshot(snapshot: RatesSnapshot | null, amount: bigint, from: string, to: string): bigint {
  if (from === to) return amount;
  if (!snapshot) throw ratesUnavailable();
  for (const code of [from, to]) {
    if (code !== 'USD' && snapshot.rates[code] === undefined) throw ratesUnavailable(`No exchange rate for ${code}.`);
  }
  return convertMinorExact(amount, from, to, crossRate(snapshot.rates, from, to));
}
