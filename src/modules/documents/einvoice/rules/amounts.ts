// Reading the model's written amounts as exact decimals for the calculation rules. A value that is absent or not
// a decimal reads as null: in the Schematron such a comparison is false, so the rule that needs it fails.
import { type Decimal, parseDecimal, sum } from './decimal';
import type { Written } from './model';

export const amount = (written: Written): Decimal | null => parseDecimal(written);

/** The sum of the written amounts; null when any of them is not a decimal. */
export function total(values: Written[]): Decimal | null {
  const parsed = values.map(amount);
  return parsed.every((value): value is Decimal => value !== null) ? sum(parsed) : null;
}

export const code = (written: Written | undefined): string => (written ?? '').trim();
