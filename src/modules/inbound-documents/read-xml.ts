// Reading a received e-invoice's XML (CII, UBL Invoice and CreditNote) with our EN 16931 engine. A first, small
// mapping of the engine's model into `extracted`: the fields duplicates and review need. The complete reader
// (every field, the rounding warning, the profile names) replaces this file.
import { isCurrency, exponentOf } from '../../lib/currencies';
import { divRoundHalfAwayFromZero } from '../../lib/money';
import { isCalendarDate, nowIso } from '../../lib/time';
import { readEInvoice, validateEInvoice } from '../documents/einvoice/rules';
import type { XmlReading } from './reading';
import { type ExtractedValue, TAX_CATEGORIES } from './schemas';

// Text as the resource allows it: one line, no control characters, at most `max` characters.
const clip = (value: string | null | undefined, max: number) =>
  value ? [...value.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, ' ').trim()].slice(0, max).join('') || null : null;
const dateOf = (value: string | null) => {
  const date = value && /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
  return date && isCalendarDate(date) ? date : null;
};
// UNTDID 1001 document types that are credit notes (EN 16931's code list for BT-3).
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);
const numberOf = (value: string | null) => (value !== null && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : null);

/** A decimal as written, in minor units of `exponent` (half away from zero); null when absent, malformed or negative. */
function minorOf(value: string | null, exponent: number): number | null {
  const match = value === null ? null : /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  const scaled = BigInt(match[1]! + fraction) * 10n ** BigInt(exponent);
  const minor = Number(divRoundHalfAwayFromZero(scaled, 10n ** BigInt(fraction.length)));
  return Number.isSafeInteger(minor) ? minor : null;
}

export function readInboundXml(xml: string): XmlReading {
  const read = readEInvoice(xml);
  if ('error' in read) return { ok: false, reason: `The XML is ${read.error}.` };
  const invoice = read.invoice;
  const verdict = validateEInvoice(xml);
  const currency = invoice.currency && isCurrency(invoice.currency.trim()) ? invoice.currency.trim() : null;
  const exponent = currency ? exponentOf(currency) : 2;
  const money = (value: string | null) => (currency ? minorOf(value, exponent) : null);
  const taxTotal = invoice.totals?.taxTotals.find((t) => t.currency === null || t.currency === invoice.currency)?.amount ?? null;
  const extracted: ExtractedValue = {
    kind: CREDIT_NOTE_CODES.has(invoice.typeCode?.trim() ?? '') ? 'credit_note' : 'invoice',
    supplier: { name: clip(invoice.seller.name, 300), vat_id: clip(invoice.seller.vatId, 40), tax_id: clip(invoice.seller.taxRegistrationId, 40), address: null, iban: null },
    number: clip(invoice.number, 100),
    issue_date: dateOf(invoice.issueDate),
    due_date: null,
    currency,
    subtotal: money(invoice.totals?.taxBasisTotal ?? null),
    tax: money(taxTotal),
    total: money(invoice.totals?.grandTotal ?? null),
    tax_breakdown: invoice.vatBreakdown.slice(0, 50).flatMap((group) => {
      const category = TAX_CATEGORIES.find((c) => c === group.vat?.code?.trim());
      const rate = numberOf(group.vat?.rate ?? '0');
      const [taxable, tax] = [money(group.taxableAmount), money(group.taxAmount)];
      return category && rate !== null && rate >= 0 && rate <= 100 && taxable !== null && tax !== null ? [{ category, rate, taxable_amount: taxable, tax_amount: tax }] : [];
    }),
    lines: invoice.lines.slice(0, 1000).map((line) => {
      const rate = numberOf(line.vat?.rate ?? null);
      return {
        description: clip(line.itemName, 1000),
        quantity: numberOf(line.quantity),
        unit_amount: money(line.netPrice),
        amount: money(line.netAmount),
        tax_rate: rate !== null && rate >= 0 && rate <= 100 ? rate : null,
      };
    }),
    buyer_reference: null,
    purchase_order: null,
  };
  return {
    ok: true,
    format: invoice.syntax,
    profile: clip(invoice.specification, 200),
    extracted,
    validation: {
      valid: verdict.valid,
      checked_at: nowIso(),
      errors: verdict.failures.map((f) => ({ rule: f.rule, message: f.message, path: f.path ?? null })),
      warnings: verdict.warnings.map((f) => ({ rule: f.rule, message: f.message, path: f.path ?? null })),
    },
  };
}
