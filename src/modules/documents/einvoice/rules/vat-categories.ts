// EN 16931 VAT category rules: BR-S-* (standard rated), BR-Z-* (zero rated), BR-E-* (exempt), BR-AE-* (reverse
// charge), BR-IC-* (intra-community supply, code K), BR-G-* (export outside the EU), BR-O-* (not subject to VAT).
// Each family has the same ten shapes (01 breakdown present, 02-04 who must have a VAT id, 05-07 the rate, 08 the
// taxable amount, 09 the tax, 10 the exemption reason); the official CII and UBL Schematron differ in some of
// them (rounding, tolerance, what counts), and `syntax` follows each one.
import { amount, code, total } from './amounts';
import { abs, add, compare, type Decimal, eq, fromDouble, percentOf, round2, sub, mul, toDouble, ZERO } from './decimal';
import type { AllowanceCharge, Invoice, Line, VatBreakdown } from './model';
import type { Report } from './report';

type Category = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O';
const PREFIX: Record<Category, string> = { S: 'BR-S', Z: 'BR-Z', E: 'BR-E', AE: 'BR-AE', K: 'BR-IC', G: 'BR-G', O: 'BR-O' };
const CATEGORIES = Object.keys(PREFIX) as Category[];
const ONE: Decimal = { units: 1n, scale: 0 };

const withinOne = (a: Decimal, b: Decimal) => compare(sub(a, ONE), b) < 0 && compare(add(a, ONE), b) > 0;
/** The same with `a` written untyped in the Schematron (`BasisAmount - 1`): XPath reads it as a double, so do we. */
const withinOneAsDouble = (written: string, b: Decimal) => {
  const a = Number(written.trim());
  const expected = toDouble(b);
  return a - 1 < expected && a + 1 > expected;
};

export function checkVatCategories(report: Report): void {
  for (const category of CATEGORIES) checkCategory(report, category);
}

function checkCategory(report: Report, category: Category): void {
  const invoice = report.invoice;
  const cii = invoice.syntax === 'cii';
  const rule = (n: number) => `${PREFIX[category]}-${String(n).padStart(2, '0')}`;
  const is = (vat: { code: string | null } | null) => code(vat?.code) === category;
  const lines = invoice.lines.filter((line) => is(line.vat));
  const allowances = invoice.allowancesCharges.filter((ac) => !ac.charge && is(ac.vat));
  const charges = invoice.allowancesCharges.filter((ac) => ac.charge && is(ac.vat));
  const groups = invoice.vatBreakdown.filter((group) => is(group.vat));
  const used = lines.length + allowances.length + charges.length;

  // 01: the breakdown has this category (exactly once, but for S) when a line, allowance or charge uses it.
  if (category === 'S') {
    const acs = allowances.length + charges.length;
    report.check(rule(1), cii
      ? (lines.length + groups.length >= 2 || lines.length === 0) && (acs + groups.length >= 2 || acs === 0)
      : (used > 0 && groups.length > 0) || (used === 0 && groups.length === 0), 'BG-23');
  } else if (cii) {
    report.check(rule(1), category === 'O'
      ? groups.length === 0 || (groups.length === 1 && used > 0)
      : (groups.length === 0 && used === 0) || (groups.length === 1 && used > 0), 'BG-23');
  } else {
    report.check(rule(1), (used + groups.length > 0 && groups.length === 1) || used + groups.length === 0, 'BG-23');
  }

  // 02-04: the parties' VAT identifiers this category needs (or, for O, must not have).
  const { seller, buyer, taxRepresentative } = invoice;
  const sellerVat = seller.vatId !== null || taxRepresentative?.vatId != null;
  const sellerAny = sellerVat || seller.taxRegistrationId !== null;
  const partiesHold = {
    S: sellerAny, Z: sellerAny, E: sellerAny,
    AE: sellerAny && (buyer.vatId !== null || buyer.legalId !== null),
    K: sellerVat && buyer.vatId !== null,
    G: sellerVat,
    O: !sellerVat && buyer.vatId === null,
  }[category];
  lines.forEach((_, i) => report.check(rule(2), partiesHold, `BG-25[${i + 1}]/BT-151`));
  allowances.forEach(() => report.check(rule(3), partiesHold, 'BG-20/BT-95'));
  charges.forEach(() => report.check(rule(4), partiesHold, 'BG-21/BT-102'));

  // 05-07: the rate of each line, allowance and charge.
  const rateHolds = (written: string | null) => {
    if (category === 'O') return written === null;
    const rate = amount(written);
    if (rate === null) return false;
    return category === 'S' ? compare(rate, ZERO) > 0 : eq(rate, ZERO);
  };
  lines.forEach((line, i) => report.check(rule(5), rateHolds(line.vat!.rate), `BG-25[${i + 1}]/BT-152`));
  allowances.forEach((ac) => report.check(rule(6), rateHolds(ac.vat!.rate), 'BG-20/BT-96'));
  charges.forEach((ac) => report.check(rule(7), rateHolds(ac.vat!.rate), 'BG-21/BT-103'));

  const sumsFor = sumsByRate(category, lines, allowances, charges);
  groups.forEach((group, i) => {
    const at = `BG-23[${i + 1}]`;
    report.check(rule(8), taxableHolds(invoice, category, group, sumsFor), `${at}/BT-116`);
    report.check(rule(9), taxHolds(invoice.syntax, category, group), `${at}/BT-117`);
    const exempted = group.exemptionReason !== null || group.exemptionReasonCode !== null;
    report.check(rule(10), category === 'S' || category === 'Z' ? !exempted : exempted, `${at}/BT-120`);
  });

  if (category === 'K' && groups.length > 0) {
    const period = invoice.invoicingPeriod;
    const dated = cii
      ? invoice.actualDeliveryDate !== null || period?.start != null || period?.end != null
      : (invoice.actualDeliveryDate ?? '').length > 1 || (period !== null && (period.start !== null || period.end !== null || period.descriptionCode !== null));
    const country = invoice.deliverTo?.country ?? null;
    for (const _ of cii ? groups : [groups[0]]) {
      report.check('BR-IC-11', dated, 'BT-72');
      report.check('BR-IC-12', cii ? country !== null : (country ?? '').length > 1, 'BT-80');
    }
  }

  if (category === 'O' && groups.length > 0) {
    const notO = (vat: { code: string | null } | null) => vat !== null && vat.code !== null && code(vat.code) !== 'O';
    const otherGroups = invoice.vatBreakdown.some((group) => notO(group.vat));
    const otherLines = invoice.lines.some((line) => notO(line.vat));
    const otherAllowances = invoice.allowancesCharges.some((ac) => !ac.charge && notO(ac.vat));
    const otherCharges = invoice.allowancesCharges.some((ac) => ac.charge && notO(ac.vat));
    // CII tests lines and breakdown together for 11 and 12, allowances and charges together for 13 and 14.
    report.check('BR-O-11', cii ? !(otherGroups || otherLines) : !otherGroups, 'BG-23');
    report.check('BR-O-12', cii ? !(otherGroups || otherLines) : !otherLines, 'BG-25');
    report.check('BR-O-13', cii ? !(otherAllowances || otherCharges) : !otherAllowances, 'BG-20');
    report.check('BR-O-14', cii ? !(otherAllowances || otherCharges) : !otherCharges, 'BG-21');
  }
}

/** The sums rule 08 compares a group's taxable amount with, and how many items they sum; null when one is not a number. */
type Sums = { lineSum: Decimal; chargeSum: Decimal; allowanceSum: Decimal; used: number } | null;

/**
 * Rule 08's sums by rate (for S, whose groups are one per rate) or for the whole category (the others),
 * each computed once: a received document may have thousands of lines and of groups, and summing the lines
 * again for every group would cost their product.
 */
function sumsByRate(category: Category, lines: Line[], allowances: AllowanceCharge[], charges: AllowanceCharge[]): (rate: Decimal | null) => Sums {
  type Bucket = { lines: (string | null)[]; charges: (string | null)[]; allowances: (string | null)[]; sums?: Sums };
  const buckets = new Map<string, Bucket>();
  const bucket = (key: string) => buckets.get(key) ?? buckets.set(key, { lines: [], charges: [], allowances: [] }).get(key)!;
  // Only S sorts by rate: "the lines whose rate equals the group's"; an item without a readable rate matches none.
  const keyOf = (item: { vat: { rate: string | null } | null }): string | null => {
    if (category !== 'S') return '';
    const rate = amount(item.vat?.rate ?? null);
    return rate === null ? null : canonical(rate);
  };
  for (const line of lines) {
    const key = keyOf(line);
    if (key !== null) bucket(key).lines.push(line.netAmount);
  }
  for (const ac of charges) {
    const key = keyOf(ac);
    if (key !== null) bucket(key).charges.push(ac.amount);
  }
  for (const ac of allowances) {
    const key = keyOf(ac);
    if (key !== null) bucket(key).allowances.push(ac.amount);
  }
  return (rate) => {
    const found = buckets.get(category === 'S' ? canonical(rate!) : '');
    if (!found) return { lineSum: ZERO, chargeSum: ZERO, allowanceSum: ZERO, used: 0 };
    if (found.sums === undefined) {
      const [lineSum, chargeSum, allowanceSum] = [found.lines, found.charges, found.allowances].map(total);
      found.sums = lineSum && chargeSum && allowanceSum
        ? { lineSum, chargeSum, allowanceSum, used: found.lines.length + found.charges.length + found.allowances.length }
        : null;
    }
    return found.sums;
  };
}

/** A decimal's value as a key: 19, 19.0 and 19.00 are one rate. */
function canonical(value: Decimal): string {
  let { units, scale } = value;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return `${units}e-${scale}`;
}

/** 08: the group's taxable amount against its lines, less its allowances, plus its charges. */
function taxableHolds(invoice: Invoice, category: Category, group: VatBreakdown, sumsFor: (rate: Decimal | null) => Sums): boolean {
  const cii = invoice.syntax === 'cii';
  const taxable = amount(group.taxableAmount);
  if (taxable === null) return false;
  let rate: Decimal | null = null;
  if (category === 'S') {
    if (group.vat?.rate == null) return true; // "every $rate in (the group's rate)": nothing to test
    rate = amount(group.vat.rate);
    if (rate === null) return false;
  }
  const sums = sumsFor(rate);
  if (sums === null) return false;
  const { lineSum, chargeSum, allowanceSum, used } = sums;
  if (cii) {
    const expected = sub(add(round2(lineSum), round2(chargeSum)), round2(allowanceSum));
    return category === 'S' || category === 'O' ? eq(taxable, expected) : withinOneAsDouble(group.taxableAmount!, expected);
  }
  const expected = sub(add(lineSum, chargeSum), allowanceSum);
  if (category !== 'S') return eq(taxable, expected);
  // UBL writes xs:decimal(TaxableAmount - 1): the sum in doubles, cast back to an exact decimal, compared exactly.
  const written = Number(group.taxableAmount!.trim());
  return used > 0 && compare(fromDouble(written - 1), expected) < 0 && compare(fromDouble(written + 1), expected) > 0;
}

/** 09: standard rated tax within one unit of taxable × rate; every other category's tax zero. */
function taxHolds(syntax: Invoice['syntax'], category: Category, group: VatBreakdown): boolean {
  const tax = amount(group.taxAmount);
  if (tax === null) return false;
  if (category !== 'S') return eq(tax, ZERO);
  const taxable = amount(group.taxableAmount);
  const rate = amount(group.vat?.rate ?? null);
  if (taxable === null || rate === null) return false;
  if (syntax === 'ubl') return withinOne(abs(tax), round2(mul(abs(taxable), percentOf(rate))));
  // CII multiplies by the untyped rate, so in doubles: round(|taxable| × rate) div 100.
  const expected = Math.round(toDouble(abs(taxable)) * Number(group.vat!.rate!.trim())) / 100;
  const stated = toDouble(abs(tax));
  return stated - 1 < expected && stated + 1 > expected;
}
