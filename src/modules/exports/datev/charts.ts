// The accounts a DATEV booking goes to when the workspace's `accounting` setting names none: each chart's usual
// ones. Every number was checked against a published chart:
// - [odoo] Odoo's SKR03/SKR04 charts, addons/l10n_de/data/template/account.account-de_skr03.csv and
//   account.account-de_skr04.csv (odoo/odoo), which carry DATEV's numbers and German names;
// - [intex] intex-publishing.de's SKR03/SKR04 booking patterns (cms/service/buchungsmuster.php): 1400/1200
//   "Forderungen aus Lieferungen u. Leistungen, nicht bebuchbar" (the collective account of the debtors, which a
//   booking cannot name), 1410/1210 the same "ohne Kontokorrent", which it can;
// - [rw-info] rechnungswesen-info.de, "Buchen von Bankauszügen": the bank is 1200 in SKR03 and 1800 in SKR04.
import type { AccountingChart, ExpenseCategory, RevenueAccountKey } from '../../workspaces/accounting';

export type ChartAccounts = {
  revenue: Record<RevenueAccountKey, string>;
  expense: Record<ExpenseCategory, string>;
  receivable: string;
  bank: string;
  /** `SKR` in the EXTF header (field 27). */
  code: '03' | '04';
};

export const CHARTS: Record<AccountingChart, ChartAccounts> = {
  SKR03: {
    code: '03',
    revenue: {
      standard: '8400', // Erlöse 19 % USt [odoo]
      reduced: '8300', // Erlöse 7 % USt [odoo]
      other_rate: '8200', // Erlöse [odoo]
      exempt: '8100', // Steuerfreie Umsätze § 4 Nr. 8 ff. UStG [odoo]
      small_business: '8195', // Erlöse als Kleinunternehmer nach § 19 Abs. 1 UStG [odoo]
      intra_community_supply: '8125', // Steuerfreie innergemeinschaftliche Lieferungen nach § 4 Nr. 1b UStG [odoo]
      reverse_charge: '8336', // Erlöse aus im anderen EU-Land steuerpflichtigen sonstigen Leistungen, für die der Leistungsempfänger die Umsatzsteuer schuldet [odoo]
      reverse_charge_domestic: '8337', // Erlöse aus Leistungen, für die der Leistungsempfänger die Umsatzsteuer nach § 13b UStG schuldet [odoo]
      export: '8120', // Steuerfreie Umsätze nach § 4 Nr. 1a UStG [odoo]
      outside_scope: '8338', // Erlöse aus im Drittland steuerbaren Leistungen, im Inland nicht steuerbare Umsätze [odoo]
    },
    expense: {
      software: '4964', // Aufwendungen für die zeitlich befristete Überlassung von Rechten (Lizenzen, Konzessionen) [odoo]
      hardware: '4855', // Sofortabschreibung geringwertiger Wirtschaftsgüter [odoo]
      travel: '4670', // Reisekosten Unternehmer [odoo]
      meals: '4650', // Bewirtungskosten [odoo]
      office: '4930', // Bürobedarf [odoo]
      contractors: '4909', // Fremdleistungen/Fremdarbeiten [odoo]
      fees: '4970', // Nebenkosten des Geldverkehrs [odoo]
      taxes: '4340', // Sonstige Betriebssteuern [odoo]
      marketing: '4600', // Werbekosten [odoo]
      other: '4900', // Sonstige betriebliche Aufwendungen [odoo]
    },
    receivable: '1410', // Forderungen aus Lieferungen und Leistungen ohne Kontokorrent [intex]
    bank: '1200', // Bank [rw-info]
  },
  SKR04: {
    code: '04',
    revenue: {
      standard: '4400', // Erlöse 19 % USt [odoo]
      reduced: '4300', // Erlöse 7 % USt [odoo]
      other_rate: '4200', // Erlöse [odoo]
      exempt: '4100', // Steuerfreie Umsätze § 4 Nr. 8 ff. UStG [odoo]
      small_business: '4185', // Erlöse als Kleinunternehmer nach § 19 Abs. 1 UStG [odoo]
      intra_community_supply: '4125', // Steuerfreie innergemeinschaftliche Lieferungen nach § 4 Nr. 1b UStG [odoo]
      reverse_charge: '4336', // Erlöse aus im anderen EU-Land steuerpflichtigen sonstigen Leistungen, für die der Leistungsempfänger die Umsatzsteuer schuldet [odoo]
      reverse_charge_domestic: '4337', // Erlöse aus Leistungen, für die der Leistungsempfänger die Umsatzsteuer nach § 13b UStG schuldet [odoo]
      export: '4120', // Steuerfreie Umsätze nach § 4 Nr. 1a UStG [odoo]
      outside_scope: '4338', // Erlöse aus im Drittland steuerbaren Leistungen, im Inland nicht steuerbare Umsätze [odoo]
    },
    expense: {
      software: '6837', // Aufwendungen für die zeitlich befristete Überlassung von Rechten (Lizenzen, Konzessionen) [odoo]
      hardware: '6260', // Sofortabschreibungen geringwertiger Wirtschaftsgüter [odoo]
      travel: '6670', // Reisekosten Unternehmer [odoo]
      meals: '6640', // Bewirtungskosten [odoo]
      office: '6815', // Bürobedarf [odoo]
      contractors: '6303', // Fremdleistungen/Fremdarbeiten [odoo]
      fees: '6855', // Nebenkosten des Geldverkehrs [odoo]
      taxes: '7650', // Sonstige Betriebssteuern [odoo]
      marketing: '6600', // Werbekosten [odoo]
      other: '6300', // Sonstige betriebliche Aufwendungen [odoo]
    },
    receivable: '1210', // Forderungen aus Lieferungen und Leistungen ohne Kontokorrent [intex]
    bank: '1800', // Bank [rw-info]
  },
};

/**
 * Revenue accounts DATEV marks "AM" (automatic VAT) in the chart: the account itself says the tax, so a booking
 * on one carries no tax key (a key there is refused or counts the tax twice). The common ones, as the DATEV-Kontenrahmen
 * marks them, listed by seamless-engineering/datev-extf (src/extf.ts, `automaticAccounts`), which checks files
 * against DATEV's own rules; plus this module's defaults above that carry a fixed tax (all but `other_rate`).
 */
export const AUTOMATIC_ACCOUNTS: Record<AccountingChart, ReadonlySet<string>> = {
  SKR03: new Set(['8120', '8125', '8300', '8310', '8315', '8336', '8338', '8400', '8449', '8100', '8195', '8337']),
  SKR04: new Set(['4120', '4125', '4300', '4310', '4315', '4336', '4338', '4400', '4449', '4100', '4185', '4337']),
};
