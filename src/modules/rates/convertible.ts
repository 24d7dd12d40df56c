// §1: every stored amount can be converted. A money-bearing record (invoice, expense, project
// budget) is refused in a currency the current rates do not contain, so the dashboard and project
// totals never meet one they cannot convert, unless the provider drops a currency later (the
// dashboard's `converted: false`). With no snapshot cached yet there is nothing to judge by, and
// any ISO 4217 currency is taken; USD, the base, always converts.
import { invalidField } from '../../errors';
import { readCachedSnapshot } from './snapshot';

export async function assertConvertible(env: Env, currency: string, field = 'currency'): Promise<void> {
  if (currency === 'USD') return;
  const snapshot = await readCachedSnapshot(env.RATES_KV);
  if (snapshot && snapshot.rates[currency] === undefined) {
    throw invalidField(field, `No exchange rate is published for ${currency}, so its amounts could not be converted; use another currency.`);
  }
}
