// Exchange-rate fixtures: the upstream's answer, and a snapshot put straight into the cache (or taken
// out of it). Both drop the rates the runtime holds for its currency check, as a refresh does.
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { forgetHeldRates } from '../../src/modules/rates/convertible';

export const RATES_KEY = 'rates:v1:USD';

export function upstreamAnswer(rates: Record<string, number>, publishedUnix = 1_795_000_000) {
  return { result: 'success', base_code: 'USD', time_last_update_unix: publishedUnix, rates: { USD: 1, ...rates } };
}

/** Makes every outbound fetch answer `respond()`; the Response is built inside, as the runtime requires. */
export function mockUpstream(respond: (request: Request) => Promise<Response> | Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => respond(new Request(input as RequestInfo, init)));
}

export async function putRates(rates: Record<string, number>, fetchedAt = new Date()) {
  const at = fetchedAt.toISOString();
  await env.RATES_KV.put(RATES_KEY, JSON.stringify({ base: 'USD', rates: { USD: 1, ...rates }, as_of: at, fetched_at: at, source: 'test' }));
  forgetHeldRates();
}

/** No snapshot at all, as before the first fetch. */
export async function deleteRates() {
  await env.RATES_KV.delete(RATES_KEY);
  forgetHeldRates();
}

/** Keeps `rates` (units per USD) as the rates of `day` in every workspace database, as the rates cron does (§22). */
export async function keepDayRates(day: string, rates: Record<string, number>) {
  const json = JSON.stringify({ USD: 1, ...rates });
  for (const db of [env.DB, env.DB_WORKSPACES_2]) {
    await db
      .prepare("INSERT OR REPLACE INTO exchange_rates (currency, day, rate, as_of) SELECT key, ?1, value, ?1 || 'T12:00:00.000Z' FROM json_each(?2)")
      .bind(day, json)
      .run();
  }
}
