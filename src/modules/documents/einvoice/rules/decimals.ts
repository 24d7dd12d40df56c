// EN 16931 decimal rules BR-DEC-*: amounts carry at most two decimals, counted as written (so "1.230" fails,
// as it does in the official Schematron), except BT-110/BT-111 in CII, which the CII Schematron compares by value.
// UBL-DT-01, a UBL syntax rule, says the same of every amount element but prices; it is checked here too.
import { amount, code } from './amounts';
import { decimalsWritten, eq, round2 } from './decimal';
import type { Report } from './report';

export function checkDecimals(report: Report): void {
  const invoice = report.invoice;
  const twoAtMost = (rule: string, written: string | null, path: string) => report.check(rule, decimalsWritten(written) <= 2, path);

  invoice.allowancesCharges.forEach((ac, i) => {
    const at = `${ac.charge ? 'BG-21' : 'BG-20'}[${i + 1}]`;
    twoAtMost(ac.charge ? 'BR-DEC-05' : 'BR-DEC-01', ac.amount, at);
    twoAtMost(ac.charge ? 'BR-DEC-06' : 'BR-DEC-02', ac.baseAmount, at);
  });

  const totals = invoice.totals;
  if (totals) {
    twoAtMost('BR-DEC-09', totals.lineTotal, 'BT-106');
    twoAtMost('BR-DEC-10', totals.allowanceTotal, 'BT-107');
    twoAtMost('BR-DEC-11', totals.chargeTotal, 'BT-108');
    twoAtMost('BR-DEC-12', totals.taxBasisTotal, 'BT-109');
    twoAtMost('BR-DEC-14', totals.grandTotal, 'BT-112');
    twoAtMost('BR-DEC-16', totals.prepaid, 'BT-113');
    twoAtMost('BR-DEC-17', totals.rounding, 'BT-114');
    twoAtMost('BR-DEC-18', totals.duePayable, 'BT-115');
    // The UBL Schematron's test of BT-110 / BT-111 looks for the currency in the wrong place and so never fails;
    // the CII one holds when one of the tax totals in that currency equals itself rounded to the cent.
    if (invoice.syntax === 'cii') {
      const rounds = (tax: { amount: string | null }) => {
        const value = amount(tax.amount);
        return value !== null && eq(value, round2(value));
      };
      const taxTotals = totals.taxTotals;
      report.check('BR-DEC-13', taxTotals.length === 0 || taxTotals.some((tax) => code(tax.currency) !== code(invoice.currency) || rounds(tax)), 'BT-110');
      report.check('BR-DEC-15', taxTotals.length === 0 || invoice.taxCurrency === null || taxTotals.some((tax) => code(tax.currency) === code(invoice.taxCurrency) && rounds(tax)), 'BT-111');
    }
  }

  invoice.vatBreakdown.forEach((group, i) => {
    twoAtMost('BR-DEC-19', group.taxableAmount, `BG-23[${i + 1}]/BT-116`);
    twoAtMost('BR-DEC-20', group.taxAmount, `BG-23[${i + 1}]/BT-117`);
  });

  for (const written of invoice.amountElements) twoAtMost('UBL-DT-01', written, 'amount');

  invoice.lines.forEach((line, i) => {
    twoAtMost('BR-DEC-23', line.netAmount, `BG-25[${i + 1}]/BT-131`);
    line.allowancesCharges.forEach((ac, j) => {
      const at = `BG-25[${i + 1}]/${ac.charge ? 'BG-28' : 'BG-27'}[${j + 1}]`;
      twoAtMost(ac.charge ? 'BR-DEC-27' : 'BR-DEC-24', ac.amount, at);
      twoAtMost(ac.charge ? 'BR-DEC-28' : 'BR-DEC-25', ac.baseAmount, at);
    });
  });
}
