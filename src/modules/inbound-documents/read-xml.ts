// A received e-invoice's XML (§21 "Processing"): CII (CrossIndustryInvoice) or UBL (Invoice, CreditNote), read
// with the safe XML reader (no DTD, no entity but XML's five, bounded in size, depth and elements) into the
// EN 16931 model our rule engine judges, then into the resource's `extracted`, its `profile` (BT-24 as a name)
// and the engine's verdict. A document that breaks the rules still reads (the verdict is shown for review);
// only one that is not an e-invoice at all, or that the reader refuses, answers `ok: false` with the reason.
// Run by the renderer worker (src/renderer/index.ts `readXml`; the API asks through read-xml-by-renderer.ts), so the
// engine is no part of the API's bundle.
import { nowIso } from '../../lib/time';
import { judgeEInvoice, readEInvoice } from '../documents/einvoice/rules';
import { extractEInvoice } from './extract-einvoice';
import { profileName } from './profiles';
import type { XmlReading } from './reading';
import type { RuleIssueValue } from './schemas';

export type ReadXmlOptions = {
  /** The XML came out of a PDF (Factur-X, ZUGFeRD): names the bare EN 16931 profile "Factur-X EN 16931". */
  embeddedInPdf?: boolean;
};

export function readInboundXml(xml: string, options: ReadXmlOptions = {}): XmlReading {
  const read = readEInvoice(xml);
  if ('error' in read) return { ok: false, reason: read.error };
  const { invoice, root } = read;
  const verdict = judgeEInvoice(invoice);
  const { extracted, warnings } = extractEInvoice(invoice, root.local === 'CreditNote');
  const issue = (failure: { rule: string; message: string; path?: string }): RuleIssueValue => ({ rule: failure.rule, message: failure.message, path: failure.path ?? null });
  return {
    ok: true,
    format: invoice.syntax,
    profile: profileName(invoice.specification, options.embeddedInPdf),
    extracted,
    validation: {
      valid: verdict.valid,
      checked_at: nowIso(),
      errors: verdict.failures.map(issue),
      warnings: [...verdict.warnings.map(issue), ...warnings],
    },
  };
}
