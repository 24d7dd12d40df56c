// EN 16931 mandatory fields and structure, BR-01 … BR-65 and the BR-CO rules about presence (BR-CO-03, -04, -09,
// -18 … -24, -26), as the official CII and UBL Schematron test them. Where the two syntaxes' Schematron differ
// (a rule checked only when its group is present in one syntax, always in the other), `syntax` says which.
import { VAT_PREFIXES } from '../codes';
import { amount, code } from './amounts';
import { compare, ZERO } from './decimal';
import type { AllowanceCharge, Party } from './model';
import type { Report } from './report';
import { filled } from './xml-path';

export function checkMandatory(report: Report): void {
  const invoice = report.invoice;
  const cii = invoice.syntax === 'cii';
  const { seller, buyer } = invoice;

  report.check('BR-01', filled(invoice.specification), 'BT-24');
  report.check('BR-02', filled(invoice.number), 'BT-1');
  report.check('BR-03', filled(invoice.issueDate), 'BT-2');
  report.check('BR-04', filled(invoice.typeCode), 'BT-3');
  report.check('BR-05', filled(invoice.currency), 'BT-5');
  report.check('BR-06', filled(seller.name), 'BT-27');
  report.check('BR-07', filled(buyer.name), 'BT-44');
  report.check('BR-08', seller.address !== null, 'BG-5');
  // CII tests the country from the root (so a missing address fails it too); UBL only inside an address.
  if (cii || seller.address) report.check('BR-09', filled(seller.address?.country), 'BT-40');
  report.check('BR-10', buyer.address !== null, 'BG-8');
  if (cii || buyer.address) report.check('BR-11', filled(buyer.address?.country), 'BT-55');

  const totals = invoice.totals;
  if (totals) {
    report.check('BR-12', totals.lineTotal !== null, 'BT-106');
    report.check('BR-13', totals.taxBasisTotal !== null, 'BT-109');
    report.check('BR-14', totals.grandTotal !== null, 'BT-112');
    report.check('BR-15', totals.duePayable !== null, 'BT-115');
  }
  report.check('BR-16', invoice.lines.length > 0, 'BG-25');

  if (invoice.payee) {
    const payee = invoice.payee;
    // CII also asks that the payee differ from the seller (name, identifier, legal registration).
    const differs = !cii || (payee.name !== seller.name && !payee.ids.some((id) => seller.ids.includes(id)) && (payee.legalId === null || payee.legalId !== seller.legalId));
    report.check('BR-17', payee.name !== null && differs, 'BG-10');
  }
  if (invoice.taxRepresentative) {
    const representative = invoice.taxRepresentative;
    report.check('BR-18', filled(representative.name), 'BT-62');
    report.check('BR-19', representative.address !== null, 'BG-12');
    if (cii || representative.address) report.check('BR-20', filled(representative.address?.country), 'BT-69');
    report.check('BR-56', filled(representative.vatId), 'BT-63');
  }

  invoice.lines.forEach((line, i) => {
    const path = `BG-25[${i + 1}]`;
    report.check('BR-21', filled(line.id), `${path}/BT-126`);
    report.check('BR-22', line.quantity !== null, `${path}/BT-129`);
    report.check('BR-23', line.unitCode !== null, `${path}/BT-130`);
    report.check('BR-24', line.netAmount !== null, `${path}/BT-131`);
    report.check('BR-25', filled(line.itemName), `${path}/BT-153`);
    report.check('BR-26', line.netPrice !== null, `${path}/BT-146`);
    const netPrice = amount(line.netPrice);
    report.check('BR-27', netPrice !== null && compare(netPrice, ZERO) >= 0, `${path}/BT-146`);
    const grossPrice = amount(line.grossPrice);
    report.check('BR-28', line.grossPrice === null || (grossPrice !== null && compare(grossPrice, ZERO) >= 0), `${path}/BT-148`);
    if (line.period) {
      report.check('BR-30', !line.period.start || !line.period.end || line.period.end >= line.period.start, `${path}/BG-26`);
      report.check('BR-CO-20', line.period.start !== null || line.period.end !== null, `${path}/BG-26`);
    }
    for (const [j, ac] of line.allowancesCharges.entries()) {
      const at = `${path}/${ac.charge ? 'BG-28' : 'BG-27'}[${j + 1}]`;
      report.check(ac.charge ? 'BR-43' : 'BR-41', ac.amount !== null, at);
      report.check(ac.charge ? 'BR-44' : 'BR-42', hasReason(ac), at);
      report.check(ac.charge ? 'BR-CO-24' : 'BR-CO-23', hasReason(ac), at);
    }
    for (const attribute of line.attributes) report.check('BR-54', attribute.name !== null && attribute.value !== null, `${path}/BG-32`);
    for (const scheme of line.standardIdSchemes) report.check('BR-64', cii ? filled(scheme) : scheme !== null, `${path}/BT-157`);
    for (const list of line.classificationLists) report.check('BR-65', cii ? filled(list) : list !== null, `${path}/BT-158`);
    report.check('BR-CO-04', filled(line.vat?.code), `${path}/BT-151`);
    // CII tests the presence of a VAT breakdown once per line; UBL once per document (below).
    if (cii) report.check('BR-CO-18', invoice.vatBreakdown.length > 0, 'BG-23');
  });
  if (!cii) report.check('BR-CO-18', invoice.vatBreakdown.length > 0, 'BG-23');

  if (invoice.invoicingPeriod) {
    const { start, end, descriptionCode } = invoice.invoicingPeriod;
    report.check('BR-29', !start || !end || end >= start, 'BG-14');
    report.check('BR-CO-19', start !== null || end !== null || (!cii && descriptionCode !== null), 'BG-14');
  }

  invoice.allowancesCharges.forEach((ac, i) => {
    const at = `${ac.charge ? 'BG-21' : 'BG-20'}[${i + 1}]`;
    report.check(ac.charge ? 'BR-36' : 'BR-31', ac.amount !== null, at);
    report.check(ac.charge ? 'BR-37' : 'BR-32', filled(ac.vat?.code), at);
    report.check(ac.charge ? 'BR-38' : 'BR-33', hasReason(ac), at);
    report.check(ac.charge ? 'BR-CO-22' : 'BR-CO-21', hasReason(ac), at);
  });

  invoice.vatBreakdown.forEach((group, i) => {
    const at = `BG-23[${i + 1}]`;
    report.check('BR-45', group.taxableAmount !== null, `${at}/BT-116`);
    report.check('BR-46', group.taxAmount !== null, `${at}/BT-117`);
    report.check('BR-47', filled(group.vat?.code), `${at}/BT-118`);
    report.check('BR-48', group.vat !== null && (group.vat.rate !== null || code(group.vat.code) === 'O'), `${at}/BT-119`);
  });

  invoice.paymentMeans.forEach((means, i) => {
    const at = `BG-16[${i + 1}]`;
    const creditTransfer = ['30', '58'].includes(code(means.code));
    report.check('BR-49', means.code !== null, `${at}/BT-81`);
    if (cii) {
      // CII checks the account only where one is given under a credit transfer.
      if (creditTransfer) {
        for (const id of means.accountIds) {
          report.check('BR-50', filled(id), `${at}/BT-84`);
          report.check('BR-61', id !== null, `${at}/BT-84`);
        }
      }
    } else {
      if (creditTransfer) for (const id of means.accountIds) report.check('BR-50', filled(id), `${at}/BT-84`);
      report.check('BR-61', !creditTransfer || means.accountIds.some((id) => id !== null), `${at}/BT-84`);
    }
  });
  for (const card of invoice.cardNumbers) report.check('BR-51', (card ?? '').trim().length <= 10, 'BT-87');
  for (const id of invoice.supportingDocuments) report.check('BR-52', filled(id), 'BT-122');
  if (filled(invoice.taxCurrency)) {
    report.check('BR-53', (totals?.taxTotals ?? []).some((tax) => code(tax.currency) === code(invoice.taxCurrency)), 'BT-111');
  }
  for (const number of invoice.precedingInvoices) report.check('BR-55', cii ? filled(number) : number !== null, 'BT-25');
  if (invoice.deliverTo) report.check('BR-57', cii ? filled(invoice.deliverTo.country) : invoice.deliverTo.country !== null, 'BT-80');
  if (seller.electronicAddress) report.check('BR-62', cii ? filled(seller.electronicAddress.scheme) : seller.electronicAddress.scheme !== null, 'BT-34');
  if (buyer.electronicAddress) report.check('BR-63', cii ? filled(buyer.electronicAddress.scheme) : buyer.electronicAddress.scheme !== null, 'BT-49');

  report.check('BR-CO-03', !(invoice.taxPointDate !== null && invoice.taxPointDateCode !== null), 'BT-7');
  for (const party of [seller, buyer, invoice.taxRepresentative].filter((p): p is Party => p !== null)) {
    if (party.vatId !== null) report.check('BR-CO-09', VAT_PREFIXES.has(party.vatId.slice(0, 2)), 'BT-31');
  }
  report.check('BR-CO-26', seller.ids.length > 0 || seller.legalId !== null || seller.vatId !== null, 'BG-4');
}

const hasReason = (ac: AllowanceCharge) => ac.reason !== null || ac.reasonCode !== null;
