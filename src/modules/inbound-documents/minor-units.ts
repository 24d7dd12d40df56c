// A received e-invoice's amounts, written as decimals, in integer minor units of its currency (§1, §21): exact
// (bigint, never a float), rounded half away from zero when the document writes more decimals than the currency
// has, and told so (`exact: false`), so the reader can warn that the stored value differs from the document.
import { divRoundHalfAwayFromZero } from '../../lib/money';
import { type Decimal, pow10 } from '../documents/einvoice/rules/decimal';

export type MinorUnits = { minor: number; exact: boolean } | { minor: null; exact: false; tooLarge: true };

function fromRatio(num: bigint, den: bigint): MinorUnits {
  const value = divRoundHalfAwayFromZero(num, den);
  const exact = num % den === 0n;
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  if (value > max || value < -max) return { minor: null, exact: false, tooLarge: true };
  return { minor: Number(value), exact };
}

/** `amount` in minor units of a currency with `exponent` decimals. */
export function toMinorUnits(amount: Decimal, exponent: number): MinorUnits {
  return fromRatio(amount.units * pow10(exponent), pow10(amount.scale));
}

/** `price` ÷ `baseQuantity` (a price per 10 or per 1000 units, BT-149) in minor units per one unit. */
export function unitPriceInMinorUnits(price: Decimal, baseQuantity: Decimal, exponent: number): MinorUnits {
  return fromRatio(price.units * pow10(exponent + baseQuantity.scale), baseQuantity.units * pow10(price.scale));
}
