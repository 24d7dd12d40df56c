// Exact decimals for the EN 16931 calculation rules, with the arithmetic of the official Schematron (XPath 2.0
// xs:decimal): sums and products exact, `round()` half up towards positive infinity, amounts compared to the cent.
// A value is an integer scaled by a power of ten, so no binary floating point ever touches an amount.

export type Decimal = { units: bigint; scale: number };

// The powers of ten the amounts use, each made once: every sum, comparison and rounding of every line scales by
// one, and a bigint power is a computation and an allocation each time.
const POWERS_OF_TEN: bigint[] = [];

/** 10ⁿ as a bigint (n ≥ 0). */
export const pow10 = (n: number): bigint => (n < 128 ? (POWERS_OF_TEN[n] ??= 10n ** BigInt(n)) : 10n ** BigInt(n));

/**
 * Digits past which a number is no amount any document means: read as not a number, because turning a
 * received document's million-digit "amount" into a bigint takes seconds (the conversion is quadratic).
 */
const MAX_DIGITS = 60;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** xs:decimal lexical form ("-12.50", "+3", ".5"), or null when it is not one (or has more than 60 digits). */
export function parseDecimal(text: string | null | undefined): Decimal | null {
  if (text == null) return null;
  const trimmed = text.trim();
  if (trimmed.length > MAX_DIGITS + 2) return null;
  // [+-]? digits* ("." digits*)?, with a digit somewhere; read by character code, as every amount of every line is.
  let at = 0;
  const sign = trimmed.charCodeAt(0);
  if (sign === 0x2b || sign === 0x2d) at++;
  const integerStart = at;
  while (isDigit(trimmed.charCodeAt(at))) at++;
  const integerEnd = at;
  let fractionStart = at;
  if (trimmed.charCodeAt(at) === 0x2e) {
    fractionStart = ++at;
    while (isDigit(trimmed.charCodeAt(at))) at++;
  }
  const fractionEnd = at;
  if (at !== trimmed.length || (integerEnd === integerStart && fractionEnd === fractionStart)) return null;
  const digits = integerEnd - integerStart + fractionEnd - fractionStart;
  let units: bigint;
  if (digits <= 15) {
    // Exact as a double (below 2^53), so summed digit by digit without a string for BigInt to parse.
    let value = 0;
    for (let i = integerStart; i < integerEnd; i++) value = value * 10 + trimmed.charCodeAt(i) - 0x30;
    for (let i = fractionStart; i < fractionEnd; i++) value = value * 10 + trimmed.charCodeAt(i) - 0x30;
    units = BigInt(value);
  } else units = BigInt(`${trimmed.slice(integerStart, integerEnd) || '0'}${trimmed.slice(fractionStart, fractionEnd)}`);
  return { units: sign === 0x2d ? -units : units, scale: fractionEnd - fractionStart };
}

export const dec = (text: string): Decimal => parseDecimal(text)!;
export const ZERO: Decimal = { units: 0n, scale: 0 };

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.units, b.units, a.scale];
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
}

export function sub(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
}

export function mul(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

export function sum(values: Decimal[]): Decimal {
  return values.reduce(add, ZERO);
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const eq = (a: Decimal, b: Decimal) => compare(a, b) === 0;
export const abs = (a: Decimal): Decimal => (a.units < 0n ? { units: -a.units, scale: a.scale } : a);

/** XPath round(): the nearest integer, halves towards positive infinity (round(-2.5) = -2). */
export function round(a: Decimal): Decimal {
  const d = pow10(a.scale);
  const twice = a.units * 2n + d;
  const den = d * 2n;
  // floor((2x + 1) / 2) with x = units / d
  const q = twice / den;
  const floor = twice % den !== 0n && twice < 0n ? q - 1n : q;
  return { units: floor, scale: 0 };
}

/** round(x × 100) div 100: the Schematron's rounding to the cent. */
export function round2(a: Decimal): Decimal {
  const r = round(mul(a, { units: 100n, scale: 0 }));
  return { units: r.units, scale: 2 };
}

/** x div 100, exactly. */
export const percentOf = (a: Decimal): Decimal => ({ units: a.units, scale: a.scale + 2 });

/** The number of digits after the point as written, the way BR-DEC-* count them: string-length(substring-after(., '.')). */
export function decimalsWritten(text: string | null | undefined): number {
  if (text == null) return 0;
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** The IEEE double nearest to `a`: some Schematron tests compare untyped values, which XPath reads as doubles. */
export function toDouble(a: Decimal): number {
  const negative = a.units < 0n;
  const digits = (negative ? -a.units : a.units).toString().padStart(a.scale + 1, '0');
  const text = a.scale === 0 ? digits : `${digits.slice(0, -a.scale)}.${digits.slice(-a.scale)}`;
  return Number(negative ? `-${text}` : text);
}

/** The exact value of a finite double, as Saxon casts one to xs:decimal (every binary fraction is a finite decimal). */
export function fromDouble(x: number): Decimal {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = exponentBits === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (exponentBits === 0 ? 1 : exponentBits) - 1075;
  const sign = negative ? -1n : 1n;
  if (exponent >= 0) return { units: sign * (mantissa << BigInt(exponent)), scale: 0 };
  // m / 2^k = m × 5^k / 10^k
  return { units: sign * mantissa * 5n ** BigInt(-exponent), scale: -exponent };
}
