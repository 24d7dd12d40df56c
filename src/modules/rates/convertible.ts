// §1: every stored amount can be converted. A money-bearing record (invoice, expense, project
// budget) is refused in a currency the current rates do not contain, so the dashboard and project
// totals never meet one they cannot convert, unless the provider drops a currency later (the
// dashboard's `converted: false`). With no snapshot cached yet there is nothing to judge by, and
// any ISO 4217 currency is taken; USD, the base, always converts.
import { invalidField } from '../../errors';
import { readCachedSnapshot } from './snapshot';

// Which currencies the rates have changes only when the provider adds or drops one, yet every money
// write asks, and reading KV for it was a tenth of a create's CPU. So an isolate holds the rates it
// read for 30 s, as it holds API keys (middleware/key-lookup.ts), and a refresh in the isolate
// replaces them at once. KV itself may take up to 60 s to show a new snapshot at other locations.
// Only a snapshot is held: while there is none, each write looks again.
const HOLD_MS = 30_000;
let held: { rates: Record<string, number>; until: number } | undefined;

/** Drops the rates this isolate holds, so the next check reads KV (after a refresh stored new ones). */
export function forgetHeldRates(): void {
  held = undefined;
}

async function currentRates(env: Env): Promise<Record<string, number> | undefined> {
  const now = Date.now();
  if (held && held.until > now) return held.rates;
  const snapshot = await readCachedSnapshot(env.RATES_KV);
  held = snapshot ? { rates: snapshot.rates, until: now + HOLD_MS } : undefined;
  return held?.rates;
}

export async function assertConvertible(env: Env, currency: string, field = 'currency'): Promise<void> {
  if (currency === 'USD') return;
  const rates = await currentRates(env);
  if (rates && rates[currency] === undefined) {
    throw invalidField(field, `No exchange rate is published for ${currency}, so its amounts could not be converted; use another currency.`);
  }
}
