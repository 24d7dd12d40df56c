// E-invoices (§15): one document value, two syntaxes, one readiness check in front of both.
import { checkEInvoice, type EInvoiceProblem } from './check';
import { renderCii } from './cii';
import type { EInvoiceDocument, EInvoiceFormat } from '../value';
import { renderUbl } from './ubl';

export type { EInvoiceProblem } from './check';
export type { EInvoiceDocument, EInvoiceFormat } from '../value';
export { checkEInvoice } from './check';

/** The XML of `doc` in `format`, or every reason it cannot be a valid e-invoice: never an invalid document. */
export function renderEInvoice(doc: EInvoiceDocument, format: EInvoiceFormat): { xml: string; problems: [] } | { xml: null; problems: EInvoiceProblem[] } {
  const problems = checkEInvoice(doc, format);
  if (problems.length > 0) return { xml: null, problems };
  return { xml: format === 'cii' ? renderCii(doc) : renderUbl(doc), problems: [] };
}
