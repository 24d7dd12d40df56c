// The one line and tax model (contract §15) shared by invoices, recurring templates, quotes and
// credit notes: a pure function from lines, a document discount and a rounding mode to every amount
// a document prints and its tax breakdown. No D1, no Hono: the API, the PDF, the page and the
// e-invoice XML (CII, UBL) are all renderers of what this returns, so they cannot disagree. A stored
// invoice gives this same value back, read from its columns (invoices/lines.ts storedDocumentTotals).
//
// Every figure is an integer count of the currency's minor unit, computed in BigInt (quantity ×
// unit_amount reaches 10^22) and rounded half away from zero. The currency's exponent never enters
// the arithmetic: ¥1 and 0.001 KWD are both one minor unit, and every rule rounds to one minor unit.
//
// The rules, in order:
//   line gross            = round(quantity × unit_amount)
//   line discount_amount  = round(gross × discount_percent / 100)
//   line amount (net)     = gross − discount_amount
//   subtotal              = Σ line amount
//   discount_total        = the document discount: `amount`, or round(subtotal × percent / 100); ≤ subtotal
//   tax groups            = the lines grouped by (tax_category, tax_rate), in the order of their first line
//   group discount part   = discount_total split over the groups in proportion to their nets, by largest
//                           remainder (ties to the earlier group), so the parts add up exactly
//   group taxable_amount  = group net − its part
//   tax_rounding "line":  line tax = round(amount × rate / 100);
//                         group tax = Σ its line tax − round(part × rate / 100) (never below 0)
//   tax_rounding "group": line tax = null; group tax = round(taxable_amount × rate / 100)
//   tax                   = Σ group tax;  total = subtotal − discount_total + tax
import { ApiError, type ErrorDetail } from '../../errors';
import { divRoundHalfAwayFromZero, toScaledInteger } from '../../lib/money';

/** EN 16931 VAT category codes (UNCL5305 subset): standard, zero-rated, exempt, reverse charge,
 *  intra-community supply, export outside the EU, not subject to VAT. */
export const TAX_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const TAX_ROUNDING_MODES = ['line', 'group'] as const;
export type TaxRounding = (typeof TAX_ROUNDING_MODES)[number];

/** Categories that need an exemption reason (BT-120) or code (BT-121), and the reason each takes by default. */
export type ExemptCategory = Exclude<TaxCategory, 'S' | 'Z'>;
export const EXEMPTION_DEFAULTS: Readonly<Record<ExemptCategory, string | null>> = {
  E: null,
  AE: 'Reverse charge',
  K: 'Intra-community supply',
  G: 'Export outside the EU',
  O: 'Not subject to VAT',
};

/** A VATEX code (CEF VATEX code list, BT-121): `VATEX-EU-AE`, `VATEX-EU-132-1A`, `VATEX-FR-FRANCHISE`. */
export const VATEX_PATTERN = /^VATEX-[A-Z]{2}-[A-Z0-9]+(?:-[A-Z0-9]+)*$/;

// ---- input --------------------------------------------------------------------------------------

export type DocumentLineInput = {
  /** > 0, at most 3 decimals (the request schema has checked it). */
  quantity: number;
  /** Minor units, ≥ 0. */
  unit_amount: number;
  /** Percent 0..100, at most 3 decimals; default 0. */
  discount_percent?: number | null;
  /** Default: S when tax_rate > 0; for rate 0, O when the issuer has no VAT id and no line has a rate, else Z. */
  tax_category?: TaxCategory | null;
  /** Percent 0..100, at most 3 decimals. */
  tax_rate: number;
};

export type DocumentDiscountInput = { percent?: number | null; amount?: number | null; reason?: string | null } | null;

export type DocumentTotalsInput = {
  lines: DocumentLineInput[];
  discount?: DocumentDiscountInput;
  tax_rounding: TaxRounding;
  /** Whether the issuing workspace has a VAT id: decides the default category of rate-0 lines. */
  issuer_has_vat_id: boolean;
  tax_exemption_reason?: string | null;
  tax_exemption_code?: string | null;
  /** Reasons that replace a category's default (a small business's note for E, §20): E then needs no reason of its own. */
  exemption_defaults?: Partial<Record<ExemptCategory, string>>;
  /** Where the lines sit in the request, for the paths of errors (`line_items.3.tax_rate`). */
  lines_path?: string;
};

// ---- output: the shape the API stores and returns and the e-invoice writers read -----------------

export type DocumentLine = {
  quantity: number;
  unit_amount: number;
  /** round(quantity × unit_amount) */
  gross: number;
  discount_percent: number;
  /** round(gross × discount_percent / 100) */
  discount_amount: number;
  /** gross − discount_amount: the line's net (BT-131). */
  amount: number;
  tax_category: TaxCategory;
  tax_rate: number;
  /** round(amount × tax_rate / 100) with tax_rounding "line"; null with "group". */
  tax: number | null;
};

export type TaxBreakdownEntry = {
  category: TaxCategory;
  /** Percent (BT-119); 0 for every category but S. */
  rate: number;
  /** Σ line amount of the group − its discount part (BT-116). */
  taxable_amount: number;
  /** BT-117 */
  tax_amount: number;
  /** The group's share of the document discount (a document-level allowance, BG-20, in this category and rate). */
  discount_amount: number;
  /** BT-120; null for S and Z. */
  exemption_reason: string | null;
  /** BT-121; null unless given, and never for S and Z. */
  exemption_code: string | null;
};

export type DocumentDiscount = { percent: number | null; amount: number; reason: string | null };

export type DocumentTotals = {
  lines: DocumentLine[];
  /** Σ line amount */
  subtotal: number;
  /** The document discount as applied (amount = discount_total), or null when there is none. */
  discount: DocumentDiscount | null;
  discount_total: number;
  tax: number;
  /** subtotal − discount_total + tax */
  total: number;
  tax_rounding: TaxRounding;
  /** One entry per (category, rate), in the order of each group's first line. */
  tax_breakdown: TaxBreakdownEntry[];
};

// ---- the engine ---------------------------------------------------------------------------------

const round = divRoundHalfAwayFromZero;
const MILLI = 1000n;
/** A percent in thousandths, times 100: the denominator of "× rate / 100" with the rate in thousandths. */
const PERCENT_MILLI = 100_000n;

const scaled = (value: number) => {
  const v = toScaledInteger(value, 3);
  if (v === null) throw new Error(`Not a decimal with at most 3 places: ${value}`);
  return BigInt(v);
};

/** 422 with every problem found, each naming its field. */
function refuse(details: ErrorDetail[]): never {
  throw new ApiError('validation_failed', 'The request is not valid.', details);
}

type Group = { category: TaxCategory; rateMilli: bigint; rate: number; net: bigint; lineTax: bigint; part: bigint };

/**
 * Every amount of a document from its lines (§15). Throws a 422 (`validation_failed`, details
 * naming each field) for a category that does not fit its rate, O mixed with other categories, an
 * exemption without a reason, or a discount larger than the subtotal.
 */
export function documentTotals(input: DocumentTotalsInput): DocumentTotals {
  const path = input.lines_path ?? 'line_items';
  const anyRate = input.lines.some((line) => scaled(line.tax_rate) > 0n);
  const defaultZeroCategory: TaxCategory = !input.issuer_has_vat_id && !anyRate ? 'O' : 'Z';
  const problems: ErrorDetail[] = [];

  const lines: DocumentLine[] = input.lines.map((line, i) => {
    const rateMilli = scaled(line.tax_rate);
    const category = line.tax_category ?? (rateMilli > 0n ? 'S' : defaultZeroCategory);
    if (category === 'S' && rateMilli === 0n) problems.push({ path: `${path}.${i}.tax_rate`, message: 'Category S (standard rate) needs a tax_rate above 0.' });
    if (category !== 'S' && rateMilli !== 0n) problems.push({ path: `${path}.${i}.tax_rate`, message: `Category ${category} has tax_rate 0; use S for a taxed line.` });
    const gross = round(scaled(line.quantity) * BigInt(line.unit_amount), MILLI);
    const discountPercent = line.discount_percent ?? 0;
    const discountAmount = round(gross * scaled(discountPercent), PERCENT_MILLI);
    const amount = gross - discountAmount;
    const tax = input.tax_rounding === 'line' ? round(amount * rateMilli, PERCENT_MILLI) : null;
    return {
      quantity: line.quantity, unit_amount: line.unit_amount, gross: Number(gross), discount_percent: discountPercent,
      discount_amount: Number(discountAmount), amount: Number(amount), tax_category: category, tax_rate: line.tax_rate,
      tax: tax === null ? null : Number(tax),
    };
  });

  const categories = new Set(lines.map((l) => l.tax_category));
  if (categories.has('O') && categories.size > 1) {
    const first = lines.findIndex((l) => l.tax_category === 'O');
    problems.push({ path: `${path}.${first}.tax_category`, message: 'Category O (not subject to VAT) cannot be mixed with other categories on one document.' });
  }
  const reason = input.tax_exemption_reason ?? null;
  const code = input.tax_exemption_code ?? null;
  const exemptionDefault = (category: ExemptCategory) => input.exemption_defaults?.[category] ?? EXEMPTION_DEFAULTS[category];
  if (categories.has('E') && !reason && !code && !exemptionDefault('E')) {
    problems.push({ path: 'tax_exemption_reason', message: 'A line in category E (exempt) needs tax_exemption_reason or tax_exemption_code.' });
  }

  // Tax groups in the order of their first line.
  const groups = new Map<string, Group>();
  for (const line of lines) {
    const rateMilli = scaled(line.tax_rate);
    const key = `${line.tax_category}:${rateMilli}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { category: line.tax_category, rateMilli, rate: line.tax_rate, net: 0n, lineTax: 0n, part: 0n }));
    group.net += BigInt(line.amount);
    group.lineTax += BigInt(line.tax ?? 0);
  }
  const ordered = [...groups.values()];
  const subtotal = ordered.reduce((sum, g) => sum + g.net, 0n);

  let discountTotal = 0n;
  let discount: DocumentDiscount | null = null;
  if (input.discount) {
    const { percent, amount, reason: discountReason } = input.discount;
    discountTotal = amount != null ? BigInt(amount) : percent != null ? round(subtotal * scaled(percent), PERCENT_MILLI) : 0n;
    if (discountTotal > subtotal) problems.push({ path: 'discount.amount', message: `The discount (${discountTotal}) is larger than the subtotal (${subtotal}).` });
    discount = { percent: amount != null ? null : (percent ?? null), amount: Number(discountTotal), reason: discountReason ?? null };
  }
  if (problems.length) refuse(problems);

  splitByLargestRemainder(discountTotal, ordered, subtotal);

  let tax = 0n;
  const tax_breakdown: TaxBreakdownEntry[] = ordered.map((g) => {
    const taxable = g.net - g.part;
    let groupTax: bigint;
    if (input.tax_rounding === 'group') groupTax = round(taxable * g.rateMilli, PERCENT_MILLI);
    else {
      // A discount can take a group's whole net, whose lines' taxes may have rounded down: the tax stops at zero.
      groupTax = g.lineTax - round(g.part * g.rateMilli, PERCENT_MILLI);
      if (groupTax < 0n) groupTax = 0n;
    }
    tax += groupTax;
    const exempt = g.category !== 'S' && g.category !== 'Z';
    const defaultReason = exempt ? exemptionDefault(g.category as ExemptCategory) : null;
    // The invoice's reason and code describe its E group when it has one (E has no default);
    // otherwise every exempt group; a category with a default falls back to it.
    const ownsReason = exempt && (g.category === 'E' || !categories.has('E'));
    return {
      category: g.category,
      rate: g.rate,
      taxable_amount: Number(taxable),
      tax_amount: Number(groupTax),
      discount_amount: Number(g.part),
      exemption_reason: exempt ? ((ownsReason ? reason : null) ?? defaultReason) : null,
      exemption_code: exempt && ownsReason ? code : null,
    };
  });

  return {
    lines,
    subtotal: Number(subtotal),
    discount,
    discount_total: Number(discountTotal),
    tax: Number(tax),
    total: Number(subtotal - discountTotal + tax),
    tax_rounding: input.tax_rounding,
    tax_breakdown,
  };
}

/**
 * Sets each group's `part` of `total` in proportion to its net: every group gets the floor of its
 * exact share, then the units left over go one each to the groups with the largest remainders,
 * ties to the earlier group. The parts add up to `total` exactly.
 */
function splitByLargestRemainder(total: bigint, groups: Group[], subtotal: bigint) {
  if (total === 0n || subtotal === 0n) return;
  let given = 0n;
  const remainders = groups.map((g, index) => {
    const exact = total * g.net;
    g.part = exact / subtotal;
    given += g.part;
    return { index, remainder: exact % subtotal };
  });
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (let i = 0; given < total; i++, given++) groups[remainders[i]!.index]!.part += 1n;
}
