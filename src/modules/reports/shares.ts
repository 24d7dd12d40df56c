// How a converted sum is split over what it is made of (§22). A report converts one sum per kind of
// record, currency and day (its unit, conversion.ts); a finer figure (a project's, a tax group's, a
// buyer's, one document's) is its share of that converted sum: proportional to its own amount,
// rounded down, and the units left over go to the largest remainders (ties: the earlier part). So
// the parts always add up to the converted sum, and every report and row that splits a unit agrees
// with the one that does not.

/** `total` split over `amounts` (all of one sign, or zero) in proportion, largest remainder first. */
export function shares(total: bigint, amounts: readonly bigint[]): bigint[] {
  const whole = amounts.reduce((sum, amount) => sum + amount, 0n);
  if (amounts.length === 1) return [total];
  if (whole === 0n) return amounts.map(() => 0n);
  const negative = total < 0n;
  const target = negative ? -total : total;
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const base = abs(whole);
  const parts = amounts.map((amount) => {
    const exact = target * abs(amount);
    return { share: exact / base, remainder: exact % base };
  });
  let left = target - parts.reduce((sum, part) => sum + part.share, 0n);
  const order = parts.map((_, i) => i).sort((a, b) => (parts[b]!.remainder > parts[a]!.remainder ? 1 : parts[b]!.remainder < parts[a]!.remainder ? -1 : a - b));
  for (const i of order) {
    if (left <= 0n) break;
    parts[i]!.share += 1n;
    left -= 1n;
  }
  return parts.map((part) => (negative ? -part.share : part.share));
}

/**
 * Each row's share of its unit's converted sum. `unitOf` names the unit (kind, currency, day);
 * `convert` converts one unit's sum, given its first row (which carries the day's rates).
 */
export function convertedShares<T>(rows: readonly T[], unitOf: (row: T) => string, amountOf: (row: T) => bigint, convert: (sum: bigint, row: T) => bigint): Map<T, bigint> {
  const units = new Map<string, T[]>();
  for (const row of rows) {
    const key = unitOf(row);
    const unit = units.get(key);
    if (unit) unit.push(row);
    else units.set(key, [row]);
  }
  const result = new Map<T, bigint>();
  for (const unit of units.values()) {
    const amounts = unit.map(amountOf);
    const converted = convert(amounts.reduce((sum, amount) => sum + amount, 0n), unit[0]!);
    shares(converted, amounts).forEach((share, i) => result.set(unit[i]!, share));
  }
  return result;
}
