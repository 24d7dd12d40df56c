// Keeping the cached snapshot fresh. The cron refreshes it; a request only ever reads KV, except
// when KV has never been filled, when it tries the upstream itself, once per isolate however many
// requests are waiting. A refresh that fails, or whose answer the sanity rules refuse, leaves the
// last good snapshot in place and says why in the logs.
import { config } from '../../config';
import { forgetHeldRates } from './convertible';
import { keepDayRates } from './history';
import { type MajorRatesAt, majorRatesOf, nextHistory, referenceFor, SnapshotRefused, vetSnapshot } from './sanity';
import { RATES_HISTORY_KV_KEY, RATES_KV_KEY, readCachedSnapshot, type RatesSnapshot } from './snapshot';
import { fetchUpstreamRates } from './upstream';

/**
 * The major currencies of the good snapshots since the one at least 24 hours older than the last
 * good one (sanity.ts). Only entries up to the last good one count; with no last good snapshot, or
 * none kept yet (a cache from before the history), the last good one alone.
 */
async function readHistory(kv: KVNamespace, lastGood: RatesSnapshot | null): Promise<MajorRatesAt[]> {
  if (!lastGood) return [];
  const stored = (await kv.get<MajorRatesAt[]>(RATES_HISTORY_KV_KEY, 'json')) ?? [];
  const upToLastGood = stored.filter((entry) => entry.as_of < lastGood.as_of);
  return [...upToLastGood, majorRatesOf(lastGood)];
}

/** Fetches, vets and stores new rates; returns the snapshot now served (new or last good). */
export async function refreshRates(env: Env): Promise<RatesSnapshot | null> {
  const { RATES_URL, RATES_TIMEOUT_MS } = config(env);
  const lastGood = await readCachedSnapshot(env.RATES_KV);
  try {
    const fetched = await fetchUpstreamRates(RATES_URL, RATES_TIMEOUT_MS);
    const history = await readHistory(env.RATES_KV, lastGood);
    const snapshot = vetSnapshot(fetched, lastGood, Date.now(), referenceFor(history, fetched.as_of));
    // The history first: a snapshot served is always one the history has seen.
    await env.RATES_KV.put(RATES_HISTORY_KV_KEY, JSON.stringify(nextHistory(history, snapshot)));
    await env.RATES_KV.put(RATES_KV_KEY, JSON.stringify(snapshot));
    forgetHeldRates();
    // The day's rates for reports (§22), once the snapshot is served: they never run ahead of it.
    await keepDayRates(env, snapshot);
    console.log(JSON.stringify({ level: 'info', message: 'rates refreshed', as_of: snapshot.as_of, count: Object.keys(snapshot.rates).length, suspect: snapshot.suspect }));
    return snapshot;
  } catch (err) {
    const message = err instanceof SnapshotRefused ? 'rates refused as implausible; keeping the last good snapshot' : 'rates refresh failed; keeping the last good snapshot';
    console.warn(JSON.stringify({ level: 'warn', message, reason: String(err), last_good_as_of: lastGood?.as_of ?? null }));
    return lastGood;
  }
}

// The first fill in progress in this isolate: concurrent requests wait for the same upstream call.
let firstFill: Promise<RatesSnapshot | null> | null = null;

/** The snapshot requests use: KV, or, the very first time, one shared try at the upstream. */
export async function getRatesSnapshot(env: Env): Promise<RatesSnapshot | null> {
  const cached = await readCachedSnapshot(env.RATES_KV);
  if (cached) return cached;
  firstFill ??= refreshRates(env).finally(() => {
    firstFill = null;
  });
  return firstFill;
}
