// Keeping the cached snapshot fresh. The cron refreshes it; a request only ever reads KV, except
// when KV has never been filled, when it tries the upstream once itself. A failed refresh leaves
// the last good snapshot in place and says why in the logs.
import { fetchUpstreamRates } from './upstream';
import { RATES_KV_KEY, readRatesSnapshot, type RatesSnapshot } from './snapshot';

const DEFAULT_TIMEOUT_MS = 5_000;

function timeoutOf(env: Env): number {
  const value = Number(env.RATES_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

/** Fetches, validates and stores new rates; returns the snapshot now served (new or last good). */
export async function refreshRates(env: Env): Promise<RatesSnapshot | null> {
  try {
    const snapshot = await fetchUpstreamRates(env.RATES_URL, timeoutOf(env));
    await env.RATES_KV.put(RATES_KV_KEY, JSON.stringify(snapshot));
    console.log(JSON.stringify({ level: 'info', message: 'rates refreshed', as_of: snapshot.as_of, count: Object.keys(snapshot.rates).length }));
    return snapshot;
  } catch (err) {
    const lastGood = await readRatesSnapshot(env.RATES_KV);
    console.warn(JSON.stringify({ level: 'warn', message: 'rates refresh failed; keeping the last good snapshot', reason: String(err), last_good_fetched_at: lastGood?.fetched_at ?? null }));
    return lastGood;
  }
}

/** The snapshot requests use: KV, or, the very first time, one try at the upstream. */
export async function getRatesSnapshot(env: Env): Promise<RatesSnapshot | null> {
  return (await readRatesSnapshot(env.RATES_KV)) ?? refreshRates(env);
}
