// A report converts most sums in doubles and only the doubtful ones in BigInt (conversion.ts,
// applyRatio): both must give the very cent the exact conversion gives, half away from zero.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divRoundHalfAwayFromZero, decimalToRatio, type Ratio } from '../../src/lib/money';
import { applyRatio, type DayRatio } from '../../src/modules/reports/conversion';

const dayRatio = (ratio: Ratio): DayRatio => ({ ...ratio, approx: Number(ratio.num) / Number(ratio.den) });
const exact = (amount: bigint, ratio: Ratio) => divRoundHalfAwayFromZero(amount * ratio.num, ratio.den);
/** A cross rate as the reports make one: two kept rates' shortest decimals, to ÷ from. */
const crossOf = (from: number, to: number): Ratio => {
  const [f, t] = [decimalToRatio(from), decimalToRatio(to)];
  return { num: t.num * f.den, den: t.den * f.num };
};
const rate = fc.double({ min: 1e-4, max: 1e5, noNaN: true, noDefaultInfinity: true });

describe('converting at a day\'s rate', () => {
  it('gives the exact conversion for any amount at any two kept rates', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }), rate, rate, (amount, from, to) => {
        const ratio = crossOf(from, to);
        expect(applyRatio(amount, dayRatio(ratio))).toBe(exact(amount, ratio));
      }),
      { numRuns: 20_000 },
    );
  });

  it('rounds a half away from zero, on both sides of zero', () => {
    const half = dayRatio({ num: 1n, den: 2n });
    expect([applyRatio(1n, half), applyRatio(3n, half), applyRatio(-1n, half), applyRatio(-3n, half)]).toEqual([1n, 2n, -1n, -2n]);
    // 0.125 × 12 = 1.5 and 1.15 × 10 = 11.5 are ties that doubles hold only nearly (1.15 is not a double).
    expect(applyRatio(12n, dayRatio({ num: 1n, den: 8n }))).toBe(2n);
    expect(applyRatio(10n, dayRatio({ num: 115n, den: 100n }))).toBe(12n);
    expect(applyRatio(-10n, dayRatio({ num: 115n, den: 100n }))).toBe(-12n);
  });

  it('gives the exact conversion next to every half, where a double cannot tell', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: -2, max: 2 }), (den, whole, nudge) => {
        // amount × num / den = whole + 1/2 + nudge / (2·den·10^6): a tie, or a hair either side of one.
        const scale = 10n ** 6n;
        const ratio = { num: (2n * whole + 1n) * den * scale + BigInt(nudge), den: 2n * den * den * scale };
        expect(applyRatio(den, dayRatio(ratio))).toBe(exact(den, ratio));
        expect(applyRatio(-den, dayRatio(ratio))).toBe(exact(-den, ratio));
      }),
      { numRuns: 5_000 },
    );
  });
});
