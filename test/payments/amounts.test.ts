// Amounts at the edges of online payment: what a client types, converted exactly into minor units,
// and Stripe's own minor units (zero-decimal, three-decimal, ISK).
import { describe, expect, it } from 'vitest';
import { parseTypedAmount } from '../../src/modules/payments/checkout';
import { fromStripeAmount, stripe, toStripeAmount } from '../../src/modules/payments/providers/stripe';

describe('a typed amount', () => {
  it.each([
    ['12.50', 'USD', 'en-US', 1250],
    ['12,5', 'EUR', 'de-DE', 1250],
    ['1,000', 'USD', 'en-US', 100_000],
    ['1.000,50', 'EUR', 'de-DE', 100_050],
    ['1,000.50', 'EUR', 'de-DE', 100_050],
    ['1 200', 'EUR', 'fr-FR', 120_000],
    ['0.1', 'USD', 'en-US', 10],
    ['1200', 'JPY', 'ja-JP', 1200],
    ['12.345', 'KWD', 'en-US', 12_345],
    ['19999999.99', 'USD', 'en-US', 1_999_999_999],
  ])('%s %s (%s) is %i minor units', (typed, currency, locale, expected) => {
    expect(parseTypedAmount(typed, currency, locale)).toBe(expected);
  });

  it.each([['ten'], ['1.001'], ['-5'], ['1e3'], [''], ['12.5.0'], ['0x10']])('%s is not an amount in USD', (typed) => {
    expect(parseTypedAmount(typed, 'USD', 'en-US')).toBeUndefined();
  });
});

describe("Stripe's minor units", () => {
  it('zero-decimal and two-decimal currencies are as ISO has them', () => {
    expect(toStripeAmount(12_000, 'JPY')).toBe(12_000);
    expect(toStripeAmount(1250, 'USD')).toBe(1250);
    expect(fromStripeAmount(12_000, 'JPY')).toBe(12_000);
  });

  it('three-decimal currencies take amounts ending in 0', () => {
    expect(toStripeAmount(12_340, 'KWD')).toBe(12_340);
    expect(toStripeAmount(12_345, 'KWD')).toBeUndefined();
    expect(stripe.chargeStep('KWD')).toBe(10);
    expect(stripe.chargeStep('USD')).toBe(1);
  });

  it('ISK is two-decimal at Stripe but whole krónur, and MGA is zero-decimal at Stripe', () => {
    expect(toStripeAmount(500, 'ISK')).toBe(50_000);
    expect(fromStripeAmount(50_000, 'ISK')).toBe(500);
    expect(stripe.chargeStep('ISK')).toBe(1);
    expect(toStripeAmount(12_300, 'MGA')).toBe(123);
    expect(toStripeAmount(12_345, 'MGA')).toBeUndefined();
    expect(stripe.chargeStep('MGA')).toBe(100);
    expect(fromStripeAmount(123, 'MGA')).toBe(12_300);
  });
});
