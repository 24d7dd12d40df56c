// Money is an integer count of the currency's minor unit from request to database and back.
// This module owns every rounding rule of the contract; all of it is integer (BigInt) arithmetic.
import { ApiError } from '../errors';
import { exponentOf } from './currencies';

/** The largest unit_amount or line amount accepted: 10^13 minor units (100 billion dollars).
 *  100 lines of that, tax included, stay below Number.MAX_SAFE_INTEGER (≈ 9 × 10^15). */
export const MAX_MINOR_AMOUNT = 10_000_000_000_000;

/** The largest invoice total that can exist: 100 lines of MAX_MINOR_AMOUNT at 100 % tax. */
export const MAX_INVOICE_TOTAL = 100 * 2 * MAX_MINOR_AMOUNT;

/** num / den rounded half away from zero (den ≠ 0). */
export function divRoundHalfAwayFromZero(num: bigint, den: bigint): bigint {
  if (den < 0n) return divRoundHalfAwayFromZero(-num, -den);
  const negative = num < 0n;
  const abs = negative ? -num : num;
  const q = (2n * abs + den) / (2n * den);
  return negative ? -q : q;
}

/** num / den rounded toward negative infinity (den > 0). */
export function divFloor(num: bigint, den: bigint): bigint {
  const q = num / den;
  return num % den !== 0n && num < 0n ? q - 1n : q;
}

/** num / den rounded toward positive infinity (den > 0). */
export function divCeil(num: bigint, den: bigint): bigint {
  return -divFloor(-num, den);
}

/**
 * A decimal with at most `decimals` places as an integer count of 10^-decimals
 * ("1.5" hours with 3 decimals → 1500). Returns null when it has more places or is not a plain decimal.
 */
export function toScaledInteger(value: number | string, decimals: number): number | null {
  if (typeof value === 'number') {
    // The usual case, without text: a number with at most `decimals` places is the double nearest
    // k / 10^decimals, so k is its product with 10^decimals, rounded, and dividing k back gives it
    // exactly; a number with more places never comes back (the text below says the same, slower).
    const scale = 10 ** decimals;
    const scaled = Math.round(value * scale);
    if (Number.isSafeInteger(scaled) && scaled / scale === value) return scaled + 0; // + 0: no -0
  }
  const text = typeof value === 'number' ? numberToPlainString(value) : value;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > decimals) return null;
  const scaled = Number(BigInt(whole! + fraction.padEnd(decimals, '0').slice(0, decimals)));
  const result = sign === '-' ? -scaled : scaled;
  // A number too small for its plain form to show (5e-324) must not pass as zero.
  if (typeof value === 'number' && result / 10 ** decimals !== value) return null;
  return result;
}

/** Whether a quantity, rate or percentage has at most 3 decimal places (what the API stores them to). */
export const threeDecimals = (value: number) => toScaledInteger(value, 3) !== null;

/** The inverse: 1500 with 3 decimals → 1.5. Exact for the magnitudes we accept. */
export function fromScaledInteger(scaled: number, decimals: number): number {
  return Number(formatScaled(BigInt(scaled), decimals));
}

function formatScaled(scaled: bigint, decimals: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) return 'NaN';
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // Exponent form only appears for tiny or huge numbers; toFixed(20) keeps what matters to the 3-decimal check.
  return Math.abs(n) < 1 ? n.toFixed(20) : BigInt(Math.round(n)).toString();
}

// ---- display ---------------------------------------------------------------------------------

/**
 * An amount for people to read, formatted by Intl in `locale` with the currency's own minor unit
 * (en-US: `$1,234.50`, `¥1,200`, `KWD 12.345`). The decimal is handed to Intl as a string, so no
 * amount passes through a float on its way to the page.
 */
export function formatMoney(amount: number, currency: string, locale = 'en-US'): string {
  const exponent = exponentOf(currency);
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
  return format.format(formatScaled(BigInt(amount), exponent) as unknown as number);
}

/** `amount` × `percent` / 100, half away from zero: a markup or a share of an amount. */
export function percentOf(amount: number, percent: number): number {
  return Number(divRoundHalfAwayFromZero(BigInt(amount) * BigInt(percent), 100n));
}

/** The tax share of a payment: amount × tax / total of its invoice, half away from zero (§5's tax_collected). */
export function taxShare(amount: number, invoiceTax: number, invoiceTotal: number): number {
  if (invoiceTotal === 0) return 0;
  return Number(divRoundHalfAwayFromZero(BigInt(amount) * BigInt(invoiceTax), BigInt(invoiceTotal)));
}

// ---- invoice lines --------------------------------------------------------------------------

export type LineInput = { quantityMilli: number; unitAmount: number; taxRateMilli: number };
export type LineFigures = { amount: number; tax: number };

/** amount = round(quantity × unit_amount), half away from zero; quantity is in thousandths. */
export function lineAmount(quantityMilli: number, unitAmount: number): number {
  return Number(divRoundHalfAwayFromZero(BigInt(quantityMilli) * BigInt(unitAmount), 1000n));
}

/** tax = round(amount × tax_rate / 100), half away from zero; the rate is in thousandths of a percent. */
export function lineTax(amount: number, taxRateMilli: number): number {
  return Number(divRoundHalfAwayFromZero(BigInt(amount) * BigInt(taxRateMilli), 100_000n));
}

export function lineFigures(line: LineInput): LineFigures {
  const amount = lineAmount(line.quantityMilli, line.unitAmount);
  return { amount, tax: lineTax(amount, line.taxRateMilli) };
}

/** subtotal = Σ amount, tax = Σ line tax, total = subtotal + tax: a printed invoice always adds up. */
export function invoiceTotals(lines: LineFigures[]): { subtotal: number; tax: number; total: number } {
  let subtotal = 0n;
  let tax = 0n;
  for (const line of lines) {
    subtotal += BigInt(line.amount);
    tax += BigInt(line.tax);
  }
  return { subtotal: Number(subtotal), tax: Number(tax), total: Number(subtotal + tax) };
}

// ---- exchange rates -------------------------------------------------------------------------

/** An exact rational number: rates arrive as decimals ("0.9213") and are never turned into floats for math. */
export type Ratio = { num: bigint; den: bigint };

/** "0.9213" (or the number 0.9213, by its shortest decimal form) → 9213/10000. */
export function decimalToRatio(value: number | string): Ratio {
  const text = typeof value === 'number' ? numberToPlainString(value) : value;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`Not a positive decimal: ${text}`);
  const fraction = match[2] ?? '';
  return { num: BigInt(match[1]! + fraction), den: 10n ** BigInt(fraction.length) };
}

/** Rates are units of a currency per 1 USD. The rate from → to is rate[to] / rate[from]. */
export function crossRate(usdRates: Record<string, number | string>, from: string, to: string): Ratio {
  const fromRate = from === 'USD' ? { num: 1n, den: 1n } : decimalToRatio(requireRate(usdRates, from));
  const toRate = to === 'USD' ? { num: 1n, den: 1n } : decimalToRatio(requireRate(usdRates, to));
  return { num: toRate.num * fromRate.den, den: toRate.den * fromRate.num };
}

function requireRate(rates: Record<string, number | string>, code: string): number | string {
  const rate = rates[code];
  if (rate === undefined) throw new Error(`No rate for ${code}`);
  return rate;
}

export type Rounding = 'half_away_from_zero' | 'down' | 'up';

/** A minor-unit amount in `from` converted to minor units of `to` at `rate` (to per from). */
export function convertMinor(amount: number, from: string, to: string, rate: Ratio, rounding: Rounding = 'half_away_from_zero'): number {
  return exactNumber(convertMinorExact(BigInt(amount), from, to, rate, rounding), to);
}

/** convertMinor for a sum, which may be past 2^53: exact, as a BigInt. */
export function convertMinorExact(amount: bigint, from: string, to: string, rate: Ratio, rounding: Rounding = 'half_away_from_zero'): bigint {
  const shift = exponentOf(to) - exponentOf(from);
  let num = amount * rate.num;
  let den = rate.den;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  return rounding === 'down' ? divFloor(num, den) : rounding === 'up' ? divCeil(num, den) : divRoundHalfAwayFromZero(num, den);
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A converted amount beyond 2^53 would be rounded by Number() and by every JSON client: refused
 * (422), never answered inexactly. It takes a huge amount into a currency with a large rate
 * (10^11 USD is 4 × 10^17 minor units of IRR).
 */
function exactNumber(value: bigint, currency: string): number {
  if (value > SAFE || value < -SAFE) {
    throw new ApiError('validation_failed', `The amount converted into ${currency} is too large to be exact; use a smaller amount or another currency.`);
  }
  return Number(value);
}

// ---- sums ---------------------------------------------------------------------------------------
//
// Each amount is at most 10^13 minor units, but a sum of many is not: past 2^53 a JS number (and
// every JSON client reading one) rounds it. So sums are taken in SQL as text (CAST(sum(x) AS TEXT):
// SQLite adds integers exactly, to 2^63), added as BigInt, and become a number only if exact.

/** An SQL sum read as text (null for no rows) as a BigInt. */
export const sumFromSql = (text: string | number | null): bigint => (text === null ? 0n : BigInt(text));

/**
 * A figure the API reports, as a JSON number, or a 422 (`path`, saying why) when it lies beyond
 * 2^53 − 1: a client would read another number than the one meant, so none is answered.
 */
export function exactFigure(value: bigint, path: string, what: string): number {
  if (value > SAFE || value < -SAFE) {
    throw new ApiError('validation_failed', `${what} is too large to be exact in a JSON number.`, [
      { path, message: `${what} is beyond 2^53 − 1 minor units: too large to be exact in a JSON number.` },
    ]);
  }
  return Number(value);
}

/** A document's total (invoice, recurring template, …) past 10^13 minor units is refused like any single amount (§7). */
export function assertDocumentTotal(total: number, path = 'line_items'): void {
  if (total > MAX_MINOR_AMOUNT) {
    throw new ApiError('validation_failed', 'The request is not valid.', [
      { path, message: `The total (tax included) would be ${total} minor units; at most ${MAX_MINOR_AMOUNT} (10^13), like any amount.` },
    ]);
  }
}

/** A rate as a decimal string with `places` decimals (rounded half away from zero), for display. */
export function ratioToDecimal(rate: Ratio, places = 8): string {
  const scaled = divRoundHalfAwayFromZero(rate.num * 10n ** BigInt(places), rate.den);
  return formatScaled(scaled, places);
}
