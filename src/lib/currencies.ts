// ISO 4217 active currency codes and their minor-unit exponents (the number of decimals of the
// minor unit). Funds and precious-metal codes (XAU, XDR, CLF, …) are left out: nobody invoices in them.
const ZERO_DECIMAL = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF';
const THREE_DECIMAL = 'BHD IQD JOD KWD LYD OMR TND';
const TWO_DECIMAL = `AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD
CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL
HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR
MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD
SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWG`;

const words = (list: string) => list.split(/\s+/).filter(Boolean);

export const CURRENCY_EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...words(ZERO_DECIMAL).map((code) => [code, 0] as const),
  ...words(TWO_DECIMAL).map((code) => [code, 2] as const),
  ...words(THREE_DECIMAL).map((code) => [code, 3] as const),
]);

export const CURRENCY_CODES: readonly string[] = [...CURRENCY_EXPONENTS.keys()].sort();

export function isCurrency(code: string): boolean {
  return CURRENCY_EXPONENTS.has(code);
}

/** Decimals of the currency's minor unit: JPY 0, USD 2, KWD 3. Throws for a code that was not validated. */
export function exponentOf(code: string): number {
  const exponent = CURRENCY_EXPONENTS.get(code);
  if (exponent === undefined) throw new Error(`Unknown currency ${code}`);
  return exponent;
}
