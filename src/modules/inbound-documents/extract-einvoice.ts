// A received e-invoice, read into the EN 16931 model by our rule engine's readers, as §21's `extracted`: the
// supplier, the numbers a bookkeeper needs, the tax breakdown and the lines, in minor units of its currency. What
// the model cannot say within the resource's bounds is not guessed: it reads as null (or is left out) with a
// warning naming the business term, so a person sees it while reviewing.
import { CURRENCY_EXPONENTS } from '../../lib/currencies';
import { isCalendarDate } from '../../lib/time';
import { type Decimal, parseDecimal } from '../documents/einvoice/rules/decimal';
import type { EN16931Address, EN16931Invoice } from '../documents/einvoice/rules';
import { type MinorUnits, toMinorUnits, unitPriceInMinorUnits } from './minor-units';
import type { ExtractedValue, RuleIssueValue } from './schemas';

type Written = string | null;
type Category = ExtractedValue['tax_breakdown'][number]['category'];

const CATEGORIES = new Set<string>(['S', 'Z', 'E', 'AE', 'K', 'G', 'O']);
/** UNTDID 1001 document types that credit (BT-3): a credit note and its variants. */
const CREDIT_TYPE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);
const MAX_LINES = 1000;
const MAX_GROUPS = 50;
/** Past this many, rounding warnings are summed up in one, so a thousand four-decimal prices stay readable. */
const MAX_ROUNDING_WARNINGS = 20;

// The resource's text fields refuse control characters and bidirectional overrides (src/lib/schemas.ts).
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** A text as one trimmed line of at most `max` characters; null when blank. */
function oneLine(value: Written, max: number): string | null {
  if (value == null) return null;
  const line = value.replace(BIDI, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  return line === '' ? null : cut(line, max);
}

/** A text that may keep its line breaks and tabs. */
function multiLine(value: Written, max: number): string | null {
  if (value == null) return null;
  const text = value.replace(BIDI, '').replace(/\r\n?/g, '\n').replace(CONTROLS, ' ').trim();
  return text === '' ? null : cut(text, max);
}

/** At most `max` characters, never half a surrogate pair. */
const cut = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max).replace(/[\uD800-\uDBFF]$/, '').trimEnd());

export type EInvoiceExtraction = { extracted: ExtractedValue; warnings: RuleIssueValue[] };

/** `invoice` as `extracted`; `creditNote` when the document is a UBL CreditNote (its type code aside). */
export function extractEInvoice(invoice: EN16931Invoice, creditNote: boolean): EInvoiceExtraction {
  const warnings: RuleIssueValue[] = [];
  const warn = (rule: string, message: string, path: string | null) => warnings.push({ rule, message, path });
  let roundings = 0;

  const currencyCode = (invoice.currency ?? '').trim().toUpperCase();
  const knownExponent = CURRENCY_EXPONENTS.get(currencyCode);
  if (knownExponent === undefined) {
    warn('READ-CURRENCY', `The currency (BT-5) "${oneLine(invoice.currency, 20) ?? ''}" is not an ISO 4217 currency we know: amounts are read with 2 decimals.`, 'BT-5');
  }
  const exponent = knownExponent ?? 2;
  const currency = knownExponent === undefined ? null : currencyCode;

  // A credit note states positive amounts; an invoice whose total is negative is a credit too (some suppliers
  // send one instead of a credit note). Either way the amounts are kept positive, `kind` carries the meaning.
  const totals = invoice.totals;
  const signOf = [totals?.grandTotal, totals?.duePayable, totals?.taxBasisTotal].map((w) => parseDecimal(w ?? null)).find((d) => d !== null && d.units !== 0n);
  const negative = signOf != null && signOf.units < 0n;
  const credit = creditNote || CREDIT_TYPE_CODES.has((invoice.typeCode ?? '').trim());
  if (negative) {
    warn('READ-NEGATIVE', `The document's total is negative: read as a ${credit ? 'credit note' : 'credit'} with positive amounts.`, 'BT-112');
  }
  const sign = (d: Decimal): Decimal => (negative ? { units: -d.units, scale: d.scale } : d);

  const note = (result: MinorUnits, written: string, path: string, term: string): number | null => {
    if (result.minor === null) {
      warn('READ-AMOUNT', `${term} "${written.trim()}" is too large to read.`, path);
      return null;
    }
    if (!result.exact) {
      roundings++;
      if (roundings <= MAX_ROUNDING_WARNINGS) {
        warn('READ-ROUNDED', `${term} is written as ${written.trim()}, more decimals than ${currency ?? 'the currency'} has (${exponent}): read as ${(result.minor / 10 ** exponent).toFixed(exponent)}, rounded half away from zero.`, path);
      }
    }
    return result.minor;
  };
  /** A written amount in minor units, signed as the document means it; null when absent or not a number. */
  const money = (written: Written, path: string, term: string): number | null => {
    if (written == null) return null;
    const value = parseDecimal(written);
    if (value === null) {
      warn('READ-AMOUNT', `${term} "${oneLine(written, 40) ?? ''}" is not a number.`, path);
      return null;
    }
    return note(toMinorUnits(sign(value), exponent), written, path, term);
  };
  /** The same, where the resource takes no negative amount. */
  const positive = (written: Written, path: string, term: string): number | null => {
    const minor = money(written, path, term);
    if (minor === null || minor >= 0) return minor;
    warn('READ-AMOUNT', `${term} is negative where the rest of the document is not: left out for review.`, path);
    return null;
  };
  const date = (written: Written, path: string, term: string): string | null => {
    if (written == null || written.trim() === '') return null;
    const value = written.trim();
    const iso = /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
    if (isCalendarDate(iso) && iso >= '1970-01-01' && iso <= '2199-12-31') return iso;
    warn('READ-DATE', `${term} "${oneLine(value, 40) ?? ''}" is not a date we can read.`, path);
    return null;
  };
  const rate = (written: Written): number | null => {
    if (written == null) return null;
    const value = Number(written.trim());
    return written.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= 100 ? value : null;
  };

  const { seller } = invoice;
  const inCurrency = (totals?.taxTotals ?? []).filter((tax) => (tax.currency ?? '').trim().toUpperCase() === currencyCode);
  const taxTotal = (inCurrency.length > 0 ? inCurrency : (totals?.taxTotals ?? []).filter((tax) => tax.currency === null))[0];

  const tax_breakdown: ExtractedValue['tax_breakdown'] = [];
  invoice.vatBreakdown.forEach((group, i) => {
    const path = `BG-23[${i + 1}]`;
    const category = (group.vat?.code ?? '').trim().toUpperCase();
    const taxable = positive(group.taxableAmount, `${path}/BT-116`, 'The VAT category taxable amount (BT-116)');
    const tax = positive(group.taxAmount, `${path}/BT-117`, 'The VAT category tax amount (BT-117)');
    const groupRate = group.vat?.rate == null ? (category === 'O' ? 0 : null) : rate(group.vat.rate);
    if (!CATEGORIES.has(category) || groupRate === null || taxable === null || tax === null) {
      warn('READ-TAX-GROUP', `The VAT breakdown's group ${i + 1} (category "${oneLine(group.vat?.code ?? null, 10) ?? ''}") could not be read into the tax breakdown: left out for review.`, path);
      return;
    }
    if (tax_breakdown.length === MAX_GROUPS) {
      if (i === MAX_GROUPS) warn('READ-LEFT-OUT', `Only the first ${MAX_GROUPS} VAT groups are kept.`, 'BG-23');
      return;
    }
    tax_breakdown.push({ category: category as Category, rate: groupRate, taxable_amount: taxable, tax_amount: tax });
  });

  if (invoice.lines.length > MAX_LINES) warn('READ-LEFT-OUT', `The document has ${invoice.lines.length} lines: only the first ${MAX_LINES} are kept.`, 'BG-25');
  const lines = invoice.lines.slice(0, MAX_LINES).map((line, i): ExtractedValue['lines'][number] => {
    const path = `BG-25[${i + 1}]`;
    const quantity = line.quantity == null || line.quantity.trim() === '' ? null : Number(line.quantity.trim());
    return {
      description: multiLine(line.itemName, 1000),
      quantity: quantity !== null && Number.isFinite(quantity) ? (negative && quantity !== 0 ? -quantity : quantity) : null,
      unit_amount: unitPrice(line.netPrice, line.priceBaseQuantity, i),
      amount: money(line.netAmount, `${path}/BT-131`, `Line ${i + 1}'s net amount (BT-131)`),
      tax_rate: line.vat ? (line.vat.rate == null ? (line.vat.code?.trim() === 'O' ? 0 : null) : rate(line.vat.rate)) : null,
    };
  });
  /** BT-146 per one unit: a price stated per a base quantity (BT-149) divided by it. Never negative (BR-27). */
  function unitPrice(written: Written, baseQuantity: Written, i: number): number | null {
    if (written == null) return null;
    const path = `BG-25[${i + 1}]/BT-146`;
    const term = `Line ${i + 1}'s net price (BT-146)`;
    const price = parseDecimal(written);
    if (price === null) return money(written, path, term);
    const base = parseDecimal(baseQuantity);
    if (base === null || base.units === 0n) return note(toMinorUnits(price, exponent), written, path, term);
    return note(unitPriceInMinorUnits(price, base, exponent), `${written.trim()} per ${baseQuantity!.trim()}`, path, term);
  }

  const subtotal = positive(totals?.taxBasisTotal ?? null, 'BT-109', 'The total without VAT (BT-109)');
  const tax = positive(taxTotal?.amount ?? null, 'BT-110', 'The VAT total (BT-110)');
  const total = positive(totals?.grandTotal ?? null, 'BT-112', 'The total with VAT (BT-112)');
  if (roundings > MAX_ROUNDING_WARNINGS) {
    warn('READ-ROUNDED', `${roundings - MAX_ROUNDING_WARNINGS} more amounts have more decimals than ${currency ?? 'the currency'} has and were rounded half away from zero.`, null);
  }

  const extracted: ExtractedValue = {
    kind: credit || negative ? 'credit_note' : 'invoice',
    supplier: {
      name: oneLine(seller.name, 300),
      vat_id: oneLine(seller.vatId, 40),
      tax_id: oneLine(seller.taxRegistrationId, 40),
      address: addressLine(seller.address),
      iban: oneLine(firstAccount(invoice), 40),
    },
    number: oneLine(invoice.number, 100),
    issue_date: date(invoice.issueDate, 'BT-2', 'The issue date (BT-2)'),
    due_date: date(invoice.dueDate, 'BT-9', 'The due date (BT-9)'),
    currency,
    subtotal,
    tax,
    total,
    tax_breakdown,
    lines,
    buyer_reference: oneLine(invoice.buyerReference, 200),
    purchase_order: oneLine(invoice.purchaseOrder, 200),
  };
  return { extracted, warnings };
}

/** The seller's postal address on one line: street lines, postcode and city, region, country. */
function addressLine(address: EN16931Address | null): string | null {
  if (!address) return null;
  const part = (value: Written) => oneLine(value, 500);
  const place = [part(address.postcode), part(address.city)].filter(Boolean).join(' ');
  const parts = [...address.lines.map(part), place, part(address.region), part(address.country)].filter((p): p is string => Boolean(p));
  return parts.length ? cut(parts.join(', '), 500) : null;
}

/** The account a credit transfer goes to (BT-84), compacted as an IBAN is written. */
function firstAccount(invoice: EN16931Invoice): string | null {
  for (const means of invoice.paymentMeans) {
    const id = means.accountIds.find((account) => account != null && account.trim() !== '');
    if (id) return id.replace(/\s+/g, '').toUpperCase();
  }
  return null;
}
