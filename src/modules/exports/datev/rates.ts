// A booking in a currency other than the header's carries its amount in the header's currency too, and the
// rate (DATEV's Kurs, fields 4–6): the units of the booking's currency per one of the header's, the way the euro
// is quoted (1 EUR = 1,0850 USD), with six decimals. The rates are the current snapshot's, the same for every
// date, until the rates history of §22 exists to convert each record at its own date's.
import { convertMinor, crossRate, divRoundHalfAwayFromZero, type Ratio } from '../../../lib/money';
import { exponentOf } from '../../../lib/currencies';
import { getRatesSnapshot } from '../../rates/refresh';
import { ratesUnavailable } from '../../rates/snapshot';
import type { ToBase } from './bookings';

export async function toBaseIn(env: Env, base: string): Promise<ToBase> {
  const snapshot = await getRatesSnapshot(env);
  return (amount, currency) => {
    if (currency === base) return null;
    for (const code of [currency, base]) {
      if (code !== 'USD' && snapshot?.rates[code] === undefined) throw ratesUnavailable(`No exchange rate for ${code}.`);
    }
    const rates = snapshot!.rates;
    const rate = kurs(crossRate(rates, base, currency));
    return { amount: convertMinor(amount, currency, base, crossRate(rates, currency, base)), currency: base, exponent: exponentOf(base), rate };
  };
}

/** A rate with exactly six decimals and a decimal comma, rounded half away from zero. */
function kurs(rate: Ratio): string {
  const scaled = divRoundHalfAwayFromZero(rate.num * 1_000_000n, rate.den).toString().padStart(7, '0');
  return `${scaled.slice(0, -6)},${scaled.slice(-6)}`;
}
