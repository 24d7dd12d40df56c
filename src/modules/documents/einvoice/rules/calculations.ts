// EN 16931 calculation rules BR-CO-10 … BR-CO-17: the document totals against the lines, allowances, charges and
// VAT breakdown, with the official Schematron's arithmetic (sums rounded to the cent with XPath round(), and the
// one-unit tolerance BR-CO-17 allows). Where the CII and UBL Schematron round differently, `syntax` says which.
import { amount, code, total } from './amounts';
import { abs, add, compare, type Decimal, eq, percentOf, round, round2, sub, mul, ZERO } from './decimal';
import type { Report } from './report';

const ONE: Decimal = { units: 1n, scale: 0 };

export function checkCalculations(report: Report): void {
  const invoice = report.invoice;
  const totals = invoice.totals;
  const cii = invoice.syntax === 'cii';
  if (totals) {
    const lineSum = total(invoice.lines.map((line) => line.netAmount));
    const lineTotal = amount(totals.lineTotal);
    report.check('BR-CO-10', lineTotal !== null && lineSum !== null && eq(lineTotal, round2(lineSum)), 'BT-106');

    const allowances = invoice.allowancesCharges.filter((ac) => !ac.charge);
    const charges = invoice.allowancesCharges.filter((ac) => ac.charge);
    const sumMatches = (written: string | null, of: typeof allowances) => {
      if (written === null) return of.length === 0;
      const stated = amount(written);
      const summed = total(of.map((ac) => ac.amount));
      return stated !== null && summed !== null && eq(stated, round2(summed));
    };
    report.check('BR-CO-11', sumMatches(totals.allowanceTotal, allowances), 'BT-107');
    report.check('BR-CO-12', sumMatches(totals.chargeTotal, charges), 'BT-108');

    const basis = amount(totals.taxBasisTotal);
    const allowanceTotal = amount(totals.allowanceTotal) ?? ZERO;
    const chargeTotal = amount(totals.chargeTotal) ?? ZERO;
    report.check('BR-CO-13', basis !== null && lineTotal !== null && eq(basis, round2(add(sub(lineTotal, allowanceTotal), chargeTotal))), 'BT-109');

    const inCurrency = totals.taxTotals.filter((tax) => tax.currency !== null && code(tax.currency) === code(invoice.currency));
    // CII checks the tax total in the invoice's currency against the whole breakdown; UBL checks every TaxTotal
    // that has subtotals against its own, whatever its currency. Both sum the tax amounts that are there.
    for (const tax of cii ? inCurrency : totals.taxTotals) {
      if (!tax.withBreakdown) continue;
      const stated = amount(tax.amount);
      const summed = total(tax.subtotalTaxes.filter((written) => written !== null));
      report.check('BR-CO-14', stated !== null && summed !== null && eq(stated, round2(summed)), 'BT-110');
    }

    const grand = amount(totals.grandTotal);
    const tax = inCurrency.length === 1 ? amount(inCurrency[0]!.amount) : null;
    const withTax = grand !== null && basis !== null && tax !== null && eq(grand, round2(add(basis, tax)));
    // Both Schematron test it "for every currency code (BT-5)", so a document without one has nothing to hold;
    // the CII one also takes a total equal to the amount without VAT (no tax total in the currency).
    const withoutTax = cii && grand !== null && basis !== null && eq(grand, basis);
    report.check('BR-CO-15', invoice.currency === null || withTax || withoutTax, 'BT-112');

    const due = amount(totals.duePayable);
    const prepaid = amount(totals.prepaid) ?? ZERO;
    const rounding = amount(totals.rounding) ?? ZERO;
    let dueHolds = false;
    if (due !== null && grand !== null) {
      // CII compares exactly; UBL rounds both sides to the cent.
      dueHolds = cii
        ? eq(due, add(sub(grand, prepaid), rounding))
        : eq(round2(sub(due, rounding)), round2(sub(grand, prepaid)));
    }
    report.check('BR-CO-16', dueHolds, 'BT-115');
  }

  invoice.vatBreakdown.forEach((group, i) => {
    const rate = amount(group.vat?.rate ?? null);
    const taxAmount = amount(group.taxAmount);
    const taxable = amount(group.taxableAmount);
    let holds = false;
    if (taxAmount !== null) {
      if (rate === null) holds = group.vat?.rate == null && eq(round(taxAmount), ZERO);
      else if (eq(round(rate), ZERO)) holds = eq(round(taxAmount), ZERO);
      else if (taxable !== null) {
        // |tax| within one currency unit of |taxable| × rate / 100 rounded to the cent (CII ≤, UBL <).
        const expected = round2(mul(abs(taxable), percentOf(rate)));
        const low = compare(sub(abs(taxAmount), ONE), expected);
        const high = compare(add(abs(taxAmount), ONE), expected);
        holds = cii ? low <= 0 && high >= 0 : low < 0 && high > 0;
      }
    }
    report.check('BR-CO-17', holds, `BG-23[${i + 1}]/BT-117`);
  });
}
