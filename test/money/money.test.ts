// The rounding rules of the contract, at their edges and for any valid input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertMinor, crossRate, decimalToRatio, divRoundHalfAwayFromZero, formatMoney, invoiceTotals, lineAmount, lineFigures, lineTax,
  MAX_MINOR_AMOUNT, percentOf, toScaledInteger,
} from '../../src/lib/money';
import { exponentOf, isCurrency } from '../../src/lib/currencies';

describe('rounding half away from zero', () => {
  it('rounds halves away from zero and everything else to nearest', () => {
    expect([5n, 15n, 25n, -5n, -15n, 4n, 6n, -4n, -6n].map((n) => divRoundHalfAwayFromZero(n, 10n))).toEqual([1n, 2n, 3n, -1n, -2n, 0n, 1n, 0n, -1n]);
  });

  it('rounds a half cent on a line up, never to even', () => {
    expect(lineAmount(500, 1)).toBe(1); // 0.5 × 1 = 0.5 → 1
    expect(lineAmount(1_500, 1)).toBe(2); // 1.5 → 2
    expect(lineAmount(2_500, 1)).toBe(3); // 2.5 → 3 (banker's rounding would give 2)
    expect(lineAmount(1_005, 100)).toBe(101); // 1.005 × 100 = 100.5 → 101, where floats give 100.49999
    expect(lineTax(50, 1_000)).toBe(1); // 50 × 1 % = 0.5 → 1
    expect(lineTax(1_000, 8_250)).toBe(83); // 1000 × 8.25 % = 82.5 → 83
    expect(lineTax(999, 8_250)).toBe(82); // 82.4175 → 82
  });
});

describe('currencies', () => {
  it('knows the minor unit of zero-, two- and three-decimal currencies', () => {
    expect([exponentOf('JPY'), exponentOf('KRW'), exponentOf('USD'), exponentOf('EUR'), exponentOf('KWD'), exponentOf('BHD'), exponentOf('TND')]).toEqual([0, 0, 2, 2, 3, 3, 3]);
    expect(isCurrency('usd')).toBe(false);
    expect(isCurrency('XXX')).toBe(false);
  });

  it('converts between exponents exactly, rounding into the target\'s minor unit', () => {
    const rates = { EUR: 0.9213, JPY: 151.37, KWD: 0.3071 };
    // 100.00 USD → 92.13 EUR
    expect(convertMinor(10_000, 'USD', 'EUR', crossRate(rates, 'USD', 'EUR'))).toBe(9_213);
    // 100.00 USD → 15137 JPY
    expect(convertMinor(10_000, 'USD', 'JPY', crossRate(rates, 'USD', 'JPY'))).toBe(15_137);
    // 100.00 USD → 30.710 KWD = 30710 fils
    expect(convertMinor(10_000, 'USD', 'KWD', crossRate(rates, 'USD', 'KWD'))).toBe(30_710);
    // 1 JPY → USD: 1 / 151.37 = 0.0066063 USD = 0.66 cents → 1 cent
    expect(convertMinor(1, 'JPY', 'USD', crossRate(rates, 'JPY', 'USD'))).toBe(1);
    // 1.000 KWD → EUR: 0.9213 / 0.3071 = 3.0000 EUR
    expect(convertMinor(1_000, 'KWD', 'EUR', crossRate(rates, 'KWD', 'EUR'))).toBe(300);
    expect(convertMinor(10_001, 'USD', 'EUR', decimalToRatio('0.5'), 'down')).toBe(5_000);
    expect(convertMinor(10_001, 'USD', 'EUR', decimalToRatio('0.5'), 'up')).toBe(5_001);
  });

  it('reads decimals without floats', () => {
    expect(toScaledInteger(1.5, 3)).toBe(1_500);
    expect(toScaledInteger(0.001, 3)).toBe(1);
    expect(toScaledInteger(8.25, 3)).toBe(8_250);
    expect(toScaledInteger(1.0005, 3)).toBeNull();
    expect(toScaledInteger(1e-7, 3)).toBeNull();
    expect(toScaledInteger(5e-324, 3)).toBeNull(); // would read as 0.000 in plain form
    expect(toScaledInteger(1_000_000, 3)).toBe(1_000_000_000);
    expect(decimalToRatio(0.9213)).toEqual({ num: 9_213n, den: 10_000n });
  });
});

describe('invoice totals', () => {
  const line = fc.record({
    quantityMilli: fc.integer({ min: 1, max: 1_000_000_000 }),
    unitAmount: fc.integer({ min: 0, max: 10_000_000 }),
    taxRateMilli: fc.integer({ min: 0, max: 100_000 }),
  });

  it('always add up, with each line rounded half away from zero (property)', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 100 }), (lines) => {
        const figures = lines.map(lineFigures);
        const totals = invoiceTotals(figures);
        expect(totals.total).toBe(totals.subtotal + totals.tax);
        expect(totals.subtotal).toBe(figures.reduce((s, f) => s + f.amount, 0));
        lines.forEach((l, i) => {
          // |exact − rounded| ≤ ½, and exactly ½ only when rounded away from zero.
          const exact2 = 2n * BigInt(l.quantityMilli) * BigInt(l.unitAmount); // 2 × 1000 × exact amount
          const diff = 2_000n * BigInt(figures[i]!.amount) - exact2;
          expect(diff >= -1_000n && diff <= 1_000n).toBe(true);
          if (diff === -1_000n) throw new Error('a half was rounded down');
        });
      }),
      { numRuns: 500 },
    );
  });

  it('stay exact for 100 lines of the largest allowed amounts', () => {
    const largest = { quantityMilli: 1_000, unitAmount: MAX_MINOR_AMOUNT, taxRateMilli: 100_000 };
    const totals = invoiceTotals(Array(100).fill(lineFigures(largest)));
    expect(totals).toEqual({ subtotal: 1_000_000_000_000_000, tax: 1_000_000_000_000_000, total: 2_000_000_000_000_000 });
    expect(Number.isSafeInteger(totals.total)).toBe(true);
  });
});

describe('amounts for people to read', () => {
  // Intl puts a no-break space (U+00A0) between a currency code or a trailing symbol and the number.
  it('shows each currency with its own minor unit, in the locale asked for', () => {
    expect(formatMoney(123_450, 'USD')).toBe('$1,234.50');
    expect(formatMoney(1_200, 'JPY')).toBe('¥1,200');
    expect(formatMoney(12_345, 'KWD')).toBe('KWD\u00a012.345');
    expect(formatMoney(5, 'USD')).toBe('$0.05');
    expect(formatMoney(123_450, 'EUR', 'de-DE')).toBe('1.234,50\u00a0€');
  });

  it('prints the largest total exactly, with no float on the way', () => {
    // 2 × 10^15 + 1 cents has no exact double after /100; the string path keeps every digit.
    expect(formatMoney(2_000_000_000_000_001, 'USD')).toBe('$20,000,000,000,000.01');
    expect(formatMoney(MAX_MINOR_AMOUNT + 7, 'KWD')).toBe('KWD\u00a010,000,000,000.007');
  });

  it('takes a percentage of an amount half away from zero', () => {
    expect(percentOf(1_000, 115)).toBe(1_150);
    expect(percentOf(1, 50)).toBe(1);
    expect(percentOf(3, 50)).toBe(2);
  });
});
