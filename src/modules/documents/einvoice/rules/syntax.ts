// The few syntax rules of the official artefacts (CII-SR-*, UBL-SR-*) that guard a business term a received
// document cannot do without and that no BR rule catches in that syntax: exactly one document type code (BT-3)
// in CII, an account to pay into (BT-84) for a CII credit transfer (UBL's BR-61 says the same), and exactly one
// VAT category (BT-151) on each UBL line. The other syntax rules stay with the official validator (index.ts).
import { code } from './amounts';
import type { Report } from './report';

const CREDIT_TRANSFER = new Set(['30', '58']);

export function checkSyntax(report: Report): void {
  const invoice = report.invoice;
  if (invoice.syntax === 'cii') {
    if (invoice.typeCodeCount !== null) report.check('CII-SR-014', invoice.typeCodeCount === 1, 'BT-3');
    const unpayable = invoice.paymentMeans.some((means) => CREDIT_TRANSFER.has(code(means.code)) && !means.accountIds.some((id) => id !== null));
    report.check('CII-SR-470', !unpayable, 'BG-16/BT-84');
  } else {
    invoice.lines.forEach((line, i) => report.check('UBL-SR-48', line.taxCategoryCount === 1, `BG-25[${i + 1}]/BT-151`));
  }
}
