// §22: the workspace's `accounting` setting, what the DATEV export books with: the chart (SKR03 or SKR04),
// the tax consultant's and the client's numbers at DATEV, the start of the fiscal year and any accounts that
// differ from the chart's usual ones (modules/exports/datev/charts.ts). Stored as JSON text, sent and
// replaced whole like `issuer`; accounts not named keep the chart's defaults.
import { z } from '@hono/zod-openapi';
import { EXPENSE_CATEGORIES } from '../../db/schema/expenses';

const ACCOUNTING_CHARTS = ['SKR03', 'SKR04'] as const;
export type AccountingChart = (typeof ACCOUNTING_CHARTS)[number];

/**
 * The revenue accounts a booking can go to, by the tax of its group: `standard` (S at 19 %), `reduced`
 * (S at 7 %), `other_rate` (S at any other rate, and Z), `exempt` (E), `small_business` (E on a
 * small-business issuer's invoice), `intra_community_supply` (K), `reverse_charge` (AE to a buyer in
 * another EU country), `reverse_charge_domestic` (AE to a buyer at home, § 13b UStG), `export` (G) and
 * `outside_scope` (O).
 */
const REVENUE_ACCOUNT_KEYS = [
  'standard', 'reduced', 'other_rate', 'exempt', 'small_business', 'intra_community_supply', 'reverse_charge', 'reverse_charge_domestic', 'export', 'outside_scope',
] as const;
export type RevenueAccountKey = (typeof REVENUE_ACCOUNT_KEYS)[number];
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number];

export type AccountingValue = {
  chart: AccountingChart;
  consultant_number: number | null;
  client_number: number | null;
  /** `MM-DD` */
  fiscal_year_start: string;
  revenue_accounts: Partial<Record<RevenueAccountKey, string>>;
  expense_accounts: Partial<Record<ExpenseCategory, string>>;
  receivable_account: string | null;
  bank_account: string | null;
};

const DEFAULT_FISCAL_YEAR_START = '01-01';

// DATEV's own limits (the EXTF header, fields 11 and 12): consultant 1001–9999999, client 1–99999.
const consultantNumber = z.number().int().min(1001).max(9_999_999);
const clientNumber = z.number().int().min(1).max(99_999);

// Sachkontenlänge 4 (the header says so): a ledger account has 4 digits, a personal account (a debtor) 5.
const accountNumber = z.string().regex(/^\d{4,5}$/, 'Use an account number of 4 digits (5 for a personal account).');

/** `MM-DD` of a day every year has (no 29 February). */
function isMonthDay(value: string): boolean {
  const match = /^(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(2025, Number(match[1]) - 1, Number(match[2])));
  return date.getUTCMonth() === Number(match[1]) - 1 && date.getUTCDate() === Number(match[2]);
}

const monthDay = z.string().regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/).refine(isMonthDay, 'Use MM-DD of a day every year has, such as 01-01 or 07-01.');

/** Account overrides keyed by one of `keys`; the document lists the keys once (`propertyNames`). */
const accountsBy = (keys: readonly string[]) =>
  z
    .record(z.string(), accountNumber)
    .superRefine((accounts, issue) => {
      for (const key of Object.keys(accounts)) {
        if (!keys.includes(key)) issue.addIssue({ code: 'custom', path: [key], message: `Use one of: ${keys.join(', ')}.` });
      }
    })
    // zod-openapi's metadata type does not name propertyNames (JSON Schema 2020-12), which it passes on as given.
    .openapi({ propertyNames: { enum: [...keys] } } as object);

// One schema for the setting as sent and as shown (the workspace answers it with every field), so the
// document describes it once.
export const Accounting = z
  .strictObject({
    chart: z.enum(ACCOUNTING_CHARTS),
    consultant_number: consultantNumber.nullish().openapi({ description: 'Beraternummer.' }),
    client_number: clientNumber.nullish().openapi({ description: 'Mandantennummer.' }),
    fiscal_year_start: monthDay.optional().openapi({ description: 'MM-DD. Default 01-01.' }),
    revenue_accounts: accountsBy(REVENUE_ACCOUNT_KEYS).optional(),
    expense_accounts: accountsBy(EXPENSE_CATEGORIES).optional(),
    receivable_account: accountNumber.nullish(),
    bank_account: accountNumber.nullish(),
  })
  .openapi('Accounting', { description: 'For the DATEV export; unnamed accounts are the chart\'s usual ones.' });

export type AccountingInputValue = z.infer<typeof Accounting>;

export function readAccounting(stored: string | null): AccountingValue | null {
  if (!stored) return null;
  const value = JSON.parse(stored) as Partial<AccountingValue> & { chart: AccountingChart };
  return {
    chart: value.chart,
    consultant_number: value.consultant_number ?? null,
    client_number: value.client_number ?? null,
    fiscal_year_start: value.fiscal_year_start ?? DEFAULT_FISCAL_YEAR_START,
    revenue_accounts: value.revenue_accounts ?? {},
    expense_accounts: value.expense_accounts ?? {},
    receivable_account: value.receivable_account ?? null,
    bank_account: value.bank_account ?? null,
  };
}

export function storeAccounting(input: AccountingInputValue | null): string | null {
  if (!input) return null;
  const value: AccountingValue = {
    chart: input.chart,
    consultant_number: input.consultant_number ?? null,
    client_number: input.client_number ?? null,
    fiscal_year_start: input.fiscal_year_start ?? DEFAULT_FISCAL_YEAR_START,
    revenue_accounts: (input.revenue_accounts ?? {}) as AccountingValue['revenue_accounts'],
    expense_accounts: (input.expense_accounts ?? {}) as AccountingValue['expense_accounts'],
    receivable_account: input.receivable_account ?? null,
    bank_account: input.bank_account ?? null,
  };
  return JSON.stringify(value);
}
