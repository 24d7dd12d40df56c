// What a line that names no tax is taxed at (§20 "Tax defaults", "Small businesses"): the client's tax
// treatment, read against the workspace's default rate and what it sells, and the issuer's small-business
// mode. Pure: the rows are read by the callers (invoices/tax-situation.ts).
import type { TAX_TREATMENTS } from '../../db/schema/clients';
import type { SUPPLY_TYPES } from '../../db/schema/workspaces';
import { ApiError, type ErrorDetail } from '../../errors';
import { EU_COUNTRY_CODES } from '../../lib/countries';
import { toScaledInteger } from '../../lib/money';
import { smallBusinessNote } from './tax-notes';
import type { ExemptCategory, TaxCategory } from './totals';

export type TaxTreatment = (typeof TAX_TREATMENTS)[number];
export type SupplyType = (typeof SUPPLY_TYPES)[number];

export type TaxSituation = {
  /** Percent, above 0; null: the workspace set none, and §15's defaults stay. */
  defaultTaxRate: number | null;
  supplyType: SupplyType;
  /** Issuer setting `small_business`: no VAT is charged (§19 UStG, CGI art. 293 B). */
  smallBusiness: boolean;
  issuerCountry: string | null;
  treatment: TaxTreatment;
  buyerCountry: string | null;
  buyerHasVatId: boolean;
};

/** A line's tax as the treatment fills it in. */
export type LineTax = { tax_category: TaxCategory; tax_rate: number };

/**
 * The category the client's treatment gives, or null when it cannot tell (an `auto` client or issuer
 * without a country). `auto`: the issuer's own country → S; another EU country → AE (services) or K
 * (goods) with a VAT id, S without; outside the EU → O (services) or G (goods).
 */
export function treatmentCategory(situation: TaxSituation): TaxCategory | null {
  if (situation.smallBusiness) return 'E';
  const goods = situation.supplyType === 'goods';
  switch (situation.treatment) {
    case 'standard': return 'S';
    case 'reverse_charge': return 'AE';
    case 'intra_community': return 'K';
    case 'export': return goods ? 'G' : 'O';
    case 'exempt': return 'E';
    case 'not_subject': return 'O';
    case 'auto': {
      const { issuerCountry, buyerCountry } = situation;
      if (!issuerCountry || !buyerCountry) return null;
      if (buyerCountry === issuerCountry) return 'S';
      if (!EU_COUNTRY_CODES.has(buyerCountry)) return goods ? 'G' : 'O';
      if (!situation.buyerHasVatId) return 'S';
      return goods ? 'K' : 'AE';
    }
  }
}

/**
 * The tax a line naming neither `tax_rate` nor `tax_category` takes, or null to leave it to §15's
 * defaults (no `default_tax_rate`, not a small business). A buyer whose country is unknown is billed
 * as a domestic one: VAT charged is the mistake a client can reclaim.
 */
export function lineTaxDefault(situation: TaxSituation): LineTax | null {
  if (situation.smallBusiness) return { tax_category: 'E', tax_rate: 0 };
  if (situation.defaultTaxRate === null) return null;
  const category = treatmentCategory(situation) ?? 'S';
  return { tax_category: category, tax_rate: category === 'S' ? situation.defaultTaxRate : 0 };
}

/** What a document's lines that name no tax take, as the engine's callers hand it on (invoices/lines.ts). */
export type TaxDefaults = {
  line: LineTax | null;
  smallBusiness: boolean;
  /** Reasons that replace a category's default: the small business's note on its E group, in the document's language. */
  exemptionReasons: Partial<Record<ExemptCategory, string>>;
};

export function taxDefaultsFor(situation: TaxSituation, language: string): TaxDefaults {
  return {
    line: lineTaxDefault(situation),
    smallBusiness: situation.smallBusiness,
    exemptionReasons: situation.smallBusiness ? { E: smallBusinessNote(situation.issuerCountry, language) } : {},
  };
}

type TaxOfLine = { tax_rate?: number | null; tax_category?: TaxCategory | null };

/**
 * The lines with the defaults filled in: a line naming neither `tax_rate` nor `tax_category` takes
 * `defaults.line`; for a small business, also a line at rate 0 naming no category (it takes E), and a
 * line with a rate above 0 is a 422 naming its `tax_rate`. Lines that name their tax keep it.
 */
export function withTaxDefaults<L extends TaxOfLine>(lines: L[], defaults: TaxDefaults | undefined, path = 'line_items'): L[] {
  if (!defaults) return lines;
  const problems: ErrorDetail[] = [];
  const filled = lines.map((line, i) => {
    const rate = line.tax_rate ?? null;
    const named = rate !== null || line.tax_category != null;
    if (defaults.smallBusiness) {
      if (rate !== null && (toScaledInteger(rate, 3) ?? 0) > 0) {
        problems.push({ path: `${path}.${i}.tax_rate`, message: 'The issuer is a small business (issuer.small_business), which charges no VAT: leave tax_rate out or at 0.' });
      }
      return line.tax_category == null && !rate ? { ...line, ...defaults.line } : line;
    }
    return named || !defaults.line ? line : { ...line, ...defaults.line };
  });
  if (problems.length) throw new ApiError('validation_failed', 'The request is not valid.', problems);
  return filled;
}

export type TaxWarning = { path: string; message: string };

/**
 * The lines whose category differs from what the client's treatment gives (§20 `…/e-invoice/check`):
 * a domestic business billed at Z, an EU business with a VAT id billed S. Only where the workspace has
 * said how it taxes (a `default_tax_rate`, a treatment other than `auto`, or a small business), and
 * where the treatment can tell (both countries known for `auto`).
 */
export function taxWarnings(lines: { tax_category: TaxCategory }[], situation: TaxSituation, path = 'line_items'): TaxWarning[] {
  if (situation.defaultTaxRate === null && situation.treatment === 'auto' && !situation.smallBusiness) return [];
  const expected = treatmentCategory(situation);
  if (!expected) return [];
  const because = becauseOf(situation);
  return lines.flatMap((line, i) =>
    line.tax_category === expected ? [] : [{ path: `${path}.${i}.tax_category`, message: `Category ${line.tax_category}, but ${because} gives ${expected}.` }]);
}

function becauseOf(situation: TaxSituation): string {
  if (situation.smallBusiness) return 'a small business (issuer.small_business)';
  if (situation.treatment !== 'auto') return `the client's tax_treatment "${situation.treatment}"`;
  const { issuerCountry, buyerCountry } = situation;
  if (buyerCountry === issuerCountry) return `a client in the issuer's country (${buyerCountry})`;
  if (!EU_COUNTRY_CODES.has(buyerCountry!)) return `a client outside the EU (${buyerCountry}) for ${situation.supplyType}`;
  return situation.buyerHasVatId ? `a client with a VAT id in another EU country (${buyerCountry}) for ${situation.supplyType}` : `a client without a VAT id in another EU country (${buyerCountry})`;
}
