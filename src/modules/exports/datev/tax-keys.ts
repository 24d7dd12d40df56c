// DATEV's tax keys (BU-Schlüssel, field 9 of a booking), the same in SKR03 and SKR04. Sources:
// - [lexware] Lexware's FAQ 000002619 "DATEV-Steuerschlüssel hinterlegen" (the table from 01.01.2021):
//   USt 7 % = 2, USt 19 % = 3, VSt 7 % = 8, VSt 19 % = 9, § 13b UStG USt/VSt 7 % = 91, 19 % = 94,
//   innergemeinschaftlicher Erwerb 7 % = 18, 19 % = 19;
// - [buchhaltungsbutler] "Logik der Steuerschlüssel" (wissen.buchhaltungsbutler.de), which lists the same keys.
// A revenue booking on one of the chart's automatic accounts (charts.ts) carries none: the account says the tax.
import type { TaxCategory } from './records';

/** The key of output VAT on a revenue account that does not say the tax itself; null when DATEV has none. */
export function outputTaxKey(category: TaxCategory, rate: number): string | null {
  if (category !== 'S') return null;
  if (rate === 19) return '3'; // [lexware]
  if (rate === 7) return '2'; // [lexware]
  return null;
}

/**
 * The key of input VAT on an expense: the tax a received document charged (S), or what the business owes itself
 * on a document that charged none because the buyer pays it (AE: a service under § 13b UStG; K: goods bought
 * from another EU country), at the full German rate, which is what such purchases mostly are.
 */
export function inputTaxKey(category: TaxCategory, rate: number): string | null {
  if (category === 'S') return rate === 19 ? '9' : rate === 7 ? '8' : null; // [lexware]
  if (category === 'AE') return '94'; // [lexware] § 13b UStG 19 %
  if (category === 'K') return '19'; // [lexware] innergemeinschaftlicher Erwerb 19 %
  return null;
}
