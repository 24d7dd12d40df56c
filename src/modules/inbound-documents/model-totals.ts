// Whether a model's figures add up (§21: "totals that do not add up are warnings, never trusted silently"). A model
// misreads a digit or drops a line without knowing it; the figures of one document check each other, so each
// disagreement is a warning with its own rule id, and the person reviewing knows where to look. Sums are BigInt: up
// to 1,000 lines of 10^13 minor units pass Number's exact range.
import type { ExtractedValue, RuleIssueValue } from './schemas';

const sum = (amounts: number[]) => amounts.reduce((total, amount) => total + BigInt(amount), 0n);

/** A tax group's tax may differ from taxable × rate by a rounding per line the document added up: one unit a line at most, and one for the group. */
const taxDiffers = (taxable: number, rate: number, tax: number, lines: number) => Math.abs(Math.round((taxable * rate) / 100) - tax) > Math.max(1, lines);

export function totalsWarnings(extracted: ExtractedValue): RuleIssueValue[] {
  const { subtotal, tax, total, tax_breakdown: groups, lines } = extracted;
  const warnings: RuleIssueValue[] = [];
  const warn = (rule: string, message: string, path: string) => warnings.push({ rule, message, path });

  if (subtotal !== null && tax !== null && total !== null && BigInt(subtotal) + BigInt(tax) !== BigInt(total)) {
    warn('MODEL-TOTALS', `The net total ${subtotal} and the VAT ${tax} read by the model do not add up to the total ${total}.`, 'total');
  }

  const amounts = lines.map((line) => line.amount);
  if (amounts.length && amounts.every((amount) => amount !== null)) {
    const linesSum = sum(amounts as number[]);
    // A receipt prints its lines with VAT included: lines that add up to the gross total agree with the document too.
    const agrees = (subtotal === null || linesSum === BigInt(subtotal)) || (total !== null && linesSum === BigInt(total));
    if (!agrees) warn('MODEL-LINES', `The lines read by the model add up to ${linesSum}, not to the net total ${subtotal}.`, 'lines');
  }

  if (groups.length) {
    const taxable = sum(groups.map((group) => group.taxable_amount));
    const taxes = sum(groups.map((group) => group.tax_amount));
    if (subtotal !== null && taxable !== BigInt(subtotal)) {
      warn('MODEL-BREAKDOWN', `The VAT breakdown's taxable amounts add up to ${taxable}, not to the net total ${subtotal}.`, 'tax_breakdown');
    }
    if (tax !== null && taxes !== BigInt(tax)) warn('MODEL-BREAKDOWN', `The VAT breakdown's tax amounts add up to ${taxes}, not to the VAT total ${tax}.`, 'tax_breakdown');
    groups.forEach((group, i) => {
      const linesAtRate = lines.filter((line) => line.tax_rate === group.rate).length;
      if (taxDiffers(group.taxable_amount, group.rate, group.tax_amount, linesAtRate)) {
        warn('MODEL-TAX-RATE', `${group.rate} % of ${group.taxable_amount} is not ${group.tax_amount}, the tax the model read for that group.`, `tax_breakdown.${i}.tax_amount`);
      }
    });
  }

  const { issue_date: issued, due_date: due } = extracted;
  if (issued && due && due < issued) warn('MODEL-DATES', `The due date ${due} read by the model is before the issue date ${issued}.`, 'due_date');
  return warnings;
}
