// The §20 tax situation of a document from the rows it is made from: the workspace's default rate, what
// it sells and its issuer (country, small business), and the client's treatment, country and VAT id. What
// every place that makes lines (invoices, quotes, recurring templates, from-time) hands the engine.
import type { clients, workspaces } from '../../db/schema';
import { fromScaledInteger } from '../../lib/money';
import { languageOf } from '../documents/tax-notes';
import { taxDefaultsFor, type TaxSituation, type TaxWarning, taxWarnings } from '../documents/tax-treatment';
import type { TaxRounding } from '../documents/totals';
import { issuerOf } from '../workspaces/settings';
import type { DocumentSettings, LineRow } from './lines';

type WorkspaceRow = typeof workspaces.$inferSelect;
type ClientRow = typeof clients.$inferSelect;

/** What of the workspace the tax situation reads. */
export type TaxWorkspace = Pick<WorkspaceRow, 'issuer' | 'defaultTaxRateMilli' | 'supplyType' | 'locale'>;
/** What of the client it reads. */
export type TaxClient = Pick<ClientRow, 'taxTreatment' | 'addressCountry' | 'taxId'>;

export function taxSituationOf(workspace: TaxWorkspace, client: TaxClient): TaxSituation {
  const issuer = issuerOf(workspace);
  return {
    defaultTaxRate: workspace.defaultTaxRateMilli === null ? null : fromScaledInteger(workspace.defaultTaxRateMilli, 3),
    supplyType: workspace.supplyType,
    smallBusiness: issuer.small_business,
    issuerCountry: issuer.address.country,
    treatment: client.taxTreatment,
    buyerCountry: client.addressCountry,
    buyerHasVatId: Boolean(client.taxId),
  };
}

/**
 * The engine's settings for a document of `client` in `workspace`: its rounding mode, the issuer's VAT id,
 * and the client's tax treatment. The small-business note is in the workspace's language.
 */
export function documentSettingsFor(workspace: TaxWorkspace, client: TaxClient, taxRounding: TaxRounding): DocumentSettings {
  return {
    taxRounding,
    issuerHasVatId: Boolean(issuerOf(workspace).vat_id),
    taxDefaults: taxDefaultsFor(taxSituationOf(workspace, client), languageOf(workspace.locale)),
  };
}

/** The invoice's lines whose tax differs from what its client's treatment gives (`…/e-invoice/check`'s `warnings`). */
export function invoiceTaxWarnings(found: { invoice: { lines: LineRow[] }; workspace: TaxWorkspace; client?: TaxClient }): TaxWarning[] {
  if (!found.client) return [];
  return taxWarnings(found.invoice.lines.map((line) => ({ tax_category: line.taxCategory })), taxSituationOf(found.workspace, found.client));
}
