// The bookings of each record (§22): one per invoice and tax group (a two-rate invoice is two), one per credit
// note and tax group, one per payment and per refund, one per expense and tax group. Amounts are gross, as DATEV
// books them: on an automatic revenue account it takes the tax out of the amount itself, elsewhere the tax key
// says how much. The side (Soll/Haben) is that of `account`:
//   invoice       receivable S / revenue        credit note   receivable H / revenue
//   void          receivable H / revenue        (the invoice's reversal, on the day it was voided)
//   payment       bank S / receivable           refund        bank H / receivable
//   expense       expense S / bank              (an expense is taken as paid from the bank on its date)
import { EU_COUNTRY_CODES } from '../../../lib/countries';
import { exponentOf } from '../../../lib/currencies';
import { compactVatId } from '../../../lib/party-ids';
import type { AccountingValue, RevenueAccountKey } from '../../workspaces/accounting';
import { AUTOMATIC_ACCOUNTS, CHARTS } from './charts';
import type { Booking, DocumentRecord, ExpenseRecord, MoneyRecord, TaxCategory, TaxGroup } from './records';
import { inputTaxKey, outputTaxKey } from './tax-keys';

/** The amount in the header's currency, and DATEV's Kurs, for a booking in another one; null in the header's own. */
export type ToBase = (amount: number, currency: string, date: string) => Booking['base'];

/** The accounts of the workspace's setting, each the chart's usual one unless it names another. */
export type Accounts = {
  revenue: (key: RevenueAccountKey) => string;
  expense: (category: string) => string;
  receivable: string;
  bank: string;
  isAutomatic: (account: string) => boolean;
};

export function accountsOf(setting: AccountingValue): Accounts {
  const chart = CHARTS[setting.chart];
  return {
    revenue: (key) => setting.revenue_accounts[key] ?? chart.revenue[key],
    expense: (category) => setting.expense_accounts[category as keyof AccountingValue['expense_accounts']] ?? chart.expense[category as keyof typeof chart.expense] ?? chart.expense.other,
    receivable: setting.receivable_account ?? chart.receivable,
    bank: setting.bank_account ?? chart.bank,
    isAutomatic: (account) => AUTOMATIC_ACCOUNTS[setting.chart].has(account),
  };
}

/** Which revenue account a tax group goes to. */
export function revenueKey(group: Pick<TaxGroup, 'category' | 'rate'>, doc: Pick<DocumentRecord, 'buyerCountry' | 'issuerCountry' | 'smallBusiness'>): RevenueAccountKey {
  switch (group.category) {
    case 'S':
      return group.rate === 19 ? 'standard' : group.rate === 7 ? 'reduced' : 'other_rate';
    case 'Z':
      return 'other_rate';
    case 'E':
      return doc.smallBusiness ? 'small_business' : 'exempt';
    case 'AE': {
      const buyer = doc.buyerCountry;
      // Reverse charge across an EU border (the EC sales list's "services"), else at home (§ 13b UStG).
      return buyer !== null && EU_COUNTRY_CODES.has(buyer) && buyer !== (doc.issuerCountry ?? buyer) ? 'reverse_charge' : 'reverse_charge_domestic';
    }
    case 'K':
      return 'intra_community_supply';
    case 'G':
      return 'export';
    case 'O':
      return 'outside_scope';
  }
}

/** A document's groups; one inferred from its totals when it has none stored (rows written in bulk). */
export function groupsOf(doc: Pick<DocumentRecord, 'breakdown' | 'taxableAmount' | 'tax'>): TaxGroup[] {
  if (doc.breakdown?.length) return doc.breakdown;
  const rate = doc.taxableAmount > 0 ? Math.round((doc.tax * 100) / doc.taxableAmount) : 0;
  const category: TaxCategory = doc.tax > 0 ? 'S' : 'O';
  return [{ category, rate: category === 'S' ? rate : 0, taxable_amount: doc.taxableAmount, tax_amount: doc.tax }];
}

const flip = (side: 'S' | 'H'): 'S' | 'H' => (side === 'S' ? 'H' : 'S');

/** A booking of a signed amount: a negative one is booked the other way round, DATEV's amounts being unsigned. */
function booking(signed: number, side: 'S' | 'H', rest: Omit<Booking, 'amount' | 'side' | 'exponent' | 'base'>, toBase: ToBase): Booking | null {
  if (signed === 0) return null; // DATEV refuses 0,00
  const amount = Math.abs(signed);
  return { ...rest, amount, exponent: exponentOf(rest.currency), base: toBase(amount, rest.currency, rest.date), side: signed < 0 ? flip(side) : side };
}

const vatIdOf = (doc: DocumentRecord) => (doc.buyerVatId ? compactVatId(doc.buyerVatId).slice(0, 15) || null : null);

/**
 * An invoice's bookings (side S on the receivable), a void's reversal of them (H), or a credit note's (H).
 * `kind` says which; the text names the document and the client.
 */
export function documentBookings(doc: DocumentRecord, kind: 'invoice' | 'void' | 'credit_note', accounts: Accounts, toBase: ToBase): Booking[] {
  const side = kind === 'invoice' ? 'S' : 'H';
  const prefix = kind === 'void' ? 'Storno ' : kind === 'credit_note' ? 'Gutschrift ' : '';
  const out: Booking[] = [];
  for (const group of groupsOf(doc)) {
    const key = revenueKey(group, doc);
    const revenue = accounts.revenue(key);
    const onAutomatic = accounts.isAutomatic(revenue);
    const made = booking(group.taxable_amount + group.tax_amount, side, {
      currency: doc.currency,
      account: accounts.receivable,
      contra: revenue,
      taxKey: onAutomatic ? null : outputTaxKey(group.category, group.rate),
      date: doc.date,
      document: doc.number,
      document2: kind === 'credit_note' ? doc.invoiceNumber : null,
      text: `${prefix}${doc.number} ${doc.clientName}`,
      euVatId: key === 'reverse_charge' || key === 'intra_community_supply' ? vatIdOf(doc) : null,
    }, toBase);
    if (made) out.push(made);
  }
  return out;
}

/** A payment (bank S) or a refund (bank H), against the receivable, under its invoice's number (which clears it). */
export function moneyBooking(money: MoneyRecord, kind: 'payment' | 'refund', accounts: Accounts, toBase: ToBase): Booking | null {
  return booking(money.amount, kind === 'payment' ? 'S' : 'H', {
    currency: money.currency,
    account: accounts.bank,
    contra: accounts.receivable,
    taxKey: null,
    date: money.date,
    document: money.invoiceNumber,
    document2: null,
    text: `${kind === 'payment' ? 'Zahlung' : 'Erstattung'} ${money.invoiceNumber} ${money.clientName}`,
    euVatId: null,
  }, toBase);
}

/**
 * An expense's bookings: one per tax group of the document it came from, with the input-tax key, and what the
 * groups leave of its gross amount (none, normally) without one; an expense typed in by hand, with no groups,
 * is one booking without a key (no input tax, §21).
 */
export function expenseBookings(expense: ExpenseRecord, accounts: Accounts, toBase: ToBase): Booking[] {
  const account = accounts.expense(expense.category);
  const common = {
    currency: expense.currency, account, contra: accounts.bank, date: expense.date,
    document: expense.reference ?? '', document2: null,
    text: [expense.vendor, expense.description].filter(Boolean).join(' ') || expense.category, euVatId: null,
  };
  const out: Booking[] = [];
  let rest = expense.amount;
  for (const group of expense.breakdown ?? []) {
    const gross = group.taxable_amount + group.tax_amount;
    rest -= gross;
    const made = booking(gross, 'S', { ...common, taxKey: inputTaxKey(group.category, group.rate) }, toBase);
    if (made) out.push(made);
  }
  const made = booking(rest, 'S', { ...common, taxKey: null }, toBase);
  if (made) out.push(made);
  return out;
}
