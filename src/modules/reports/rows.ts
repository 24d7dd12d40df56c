// The records behind a period's figures (§22), one row per document, for the accountant's files
// (the period bundle's CSVs). Each row has its own amounts in its own currency and, under
// `converted`, its share (shares.ts) of the converted sums the reports show, so the rows of each
// kind add up, to the cent, to the reports of the same period and currency:
// - Σ invoices.converted.net − Σ credit_notes.converted.net = profit and loss `income` (accrual) =
//   the VAT report's output `taxable_amount`s; Σ of their converted.tax = its `output_tax`;
// - Σ payments.converted.net − Σ refunds.converted.net = `income` (cash);
//   Σ payments.fx_gain_loss = `fx_gain_loss`;
// - Σ expenses.converted.net = `expenses`; Σ expenses.converted.input_tax = the VAT report's `input_tax`.
// One read (one round trip), O(records): meant for a job, not for a request's path.
import { type SQL, sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { exactFigure } from '../../lib/money';
import { firstDayRates } from '../rates/history';
import { dayConverter, type DaySum } from './conversion';
import { dayRatesOf, reportCurrency } from './day-sums';
import type { Period } from './period';
import { countedIn } from './records';
import { convertedShares } from './shares';

type Breakdown = { category: string; rate: number; taxable_amount: number; tax_amount: number };

export type InvoiceBookRow = {
  id: string; number: string; client_id: string; project_id: string | null; issue_date: string; currency: string;
  net: number; tax: number; total: number; tax_breakdown: Breakdown[]; converted: { net: number; tax: number; total: number };
};
export type CreditNoteBookRow = Omit<InvoiceBookRow, 'number'> & { number: string; invoice_id: string };
export type PaymentBookRow = {
  id: string; invoice_id: string; paid_on: string; currency: string; method: string | null; reference: string | null;
  amount: number; tax: number; net: number; converted: { amount: number; tax: number; net: number }; fx_gain_loss: number;
};
export type RefundBookRow = {
  id: string; payment_id: string; invoice_id: string; refunded_on: string; currency: string;
  amount: number; tax: number; net: number; converted: { amount: number; tax: number; net: number };
};
export type ExpenseBookRow = {
  id: string; incurred_on: string; category: string; vendor: string | null; description: string | null; project_id: string | null; currency: string;
  amount: number; net: number; input_tax: number | null; tax_breakdown: Breakdown[] | null; converted: { amount: number; net: number; input_tax: number | null };
};
type IssueRates = { issue_from_rate: SQL<number | null>; issue_to_rate: SQL<number | null> };

export type BookRows = {
  currency: string; period: Period; rates_missing: string[];
  invoices: InvoiceBookRow[]; credit_notes: CreditNoteBookRow[]; payments: PaymentBookRow[]; refunds: RefundBookRow[]; expenses: ExpenseBookRow[];
};

const parseBreakdown = (json: string | null): Breakdown[] | null =>
  json === null ? null : (JSON.parse(json) as Breakdown[]).map(({ category, rate, taxable_amount, tax_amount }) => ({ category, rate, taxable_amount, tax_amount }));

/** Every document a period's figures count, in `currency` (default: the workspace's). */
export async function bookRows(ctx: WorkspaceContext, query: Period & { currency?: string }): Promise<BookRows> {
  const counted = countedIn(ctx.workspaceId, query);
  const currency = reportCurrency(ctx, query.currency);
  const from = (table: string, a: string) => sql`${sql.raw(table)} ${sql.raw(a)}, ${currency} t`;
  const db = ctx.db;
  const [[workspace], first, invoices, creditNotes, payments, refunds, expenses] = await db.batch([
    db.select({ code: sql<string>`code` }).from(currency),
    firstDayRates(db),
    db
      .select({
        id: sql<string>`i.id`, number: sql<string>`i.number`, client_id: sql<string>`i.client_id`, project_id: sql<string | null>`i.project_id`,
        day: sql<string>`i.issue_date`, currency: sql<string>`i.currency`, net: sql<number>`i.subtotal`, tax: sql<number>`i.tax`,
        breakdown: sql<string | null>`i.tax_breakdown`, ...dayRatesOf(sql`i.currency`, sql`i.issue_date`),
      })
      .from(from('invoices', 'i')).where(counted.invoices('i')).orderBy(sql`i.issue_date, i.id`),
    db
      .select({
        id: sql<string>`c.id`, number: sql<string>`c.number`, invoice_id: sql<string>`c.invoice_id`, client_id: sql<string>`c.client_id`,
        project_id: sql<string | null>`(SELECT project_id FROM invoices WHERE id = c.invoice_id)`,
        day: sql<string>`c.issue_date`, currency: sql<string>`c.currency`, net: sql<number>`c.total - c.tax`, tax: sql<number>`c.tax`,
        breakdown: sql<string | null>`c.tax_breakdown`, ...dayRatesOf(sql`c.currency`, sql`c.issue_date`),
      })
      .from(from('credit_notes', 'c')).where(counted.creditNotes('c')).orderBy(sql`c.issue_date, c.id`),
    db
      .select({
        id: sql<string>`p.id`, invoice_id: sql<string>`p.invoice_id`, day: sql<string>`p.paid_on`, currency: sql<string>`p.currency`,
        method: sql<string | null>`p.method`, reference: sql<string | null>`p.reference`, amount: sql<number>`p.amount`, tax: sql<number>`coalesce(p.tax, 0)`,
        issue_date: sql<string>`i.issue_date`, ...dayRatesOf(sql`p.currency`, sql`p.paid_on`),
        ...Object.fromEntries(Object.entries(dayRatesOf(sql`p.currency`, sql`i.issue_date`)).map(([name, rate]) => [`issue_${name}`, rate])) as IssueRates,
      })
      .from(sql`payments p JOIN invoices i ON i.id = p.invoice_id, ${currency} t`).where(counted.payments('p')).orderBy(sql`p.paid_on, p.id`),
    db
      .select({
        id: sql<string>`r.id`, payment_id: sql<string>`r.payment_id`, invoice_id: sql<string>`r.invoice_id`, day: sql<string>`r.refunded_on`,
        currency: sql<string>`r.currency`, amount: sql<number>`r.amount`, tax: sql<number>`coalesce(r.tax, 0)`, ...dayRatesOf(sql`r.currency`, sql`r.refunded_on`),
      })
      .from(from('refunds', 'r')).where(counted.refunds('r')).orderBy(sql`r.refunded_on, r.id`),
    db
      .select({
        id: sql<string>`e.id`, day: sql<string>`e.incurred_on`, category: sql<string>`e.category`, vendor: sql<string | null>`e.vendor`,
        description: sql<string | null>`e.description`, project_id: sql<string | null>`e.project_id`, currency: sql<string>`e.currency`,
        amount: sql<number>`e.amount`, net: sql<number>`coalesce(e.net_amount, e.amount)`, breakdown: sql<string | null>`e.tax_breakdown`,
        ...dayRatesOf(sql`e.currency`, sql`e.incurred_on`),
      })
      .from(from('expenses', 'e')).where(counted.expenses('e')).orderBy(sql`e.incurred_on, e.id`),
  ]);
  const target = workspace?.code ?? query.currency ?? 'USD';
  // A payment at its invoice's issue date: what its realized exchange difference is measured from.
  const issueDays = payments.map((p) => ({ currency: p.currency, day: p.issue_date, from_rate: p.issue_from_rate, to_rate: p.issue_to_rate, amount: p.amount }));
  const converter = await dayConverter(ctx.env, target, [...invoices, ...creditNotes, ...payments, ...issueDays, ...refunds, ...expenses], first, 'currency');

  // Each figure's share of its kind's sum per currency and day, as the reports convert it.
  const share = <T extends DaySum>(rows: readonly T[], what: string, amountOf: (row: T) => number | null) => {
    const counted = rows.filter((row) => amountOf(row) !== null);
    const shares = convertedShares(counted, (row) => `${row.currency}|${row.day}`, (row) => BigInt(amountOf(row)!), (sum, row) => converter.convert(sum, row));
    return (row: T) => {
      const value = shares.get(row);
      return value === undefined ? null : exactFigure(value, 'from', what);
    };
  };

  const invoiceNet = share(invoices, 'net', (r) => r.net);
  const invoiceTax = share(invoices, 'tax', (r) => r.tax);
  const noteNet = share(creditNotes, 'net', (r) => r.net);
  const noteTax = share(creditNotes, 'tax', (r) => r.tax);
  const paymentNet = share(payments, 'net', (r) => r.amount - r.tax);
  const paymentAmount = share(payments, 'amount', (r) => r.amount);
  const atIssue = share(issueDays, 'amount', (r) => r.amount);
  const refundNet = share(refunds, 'net', (r) => r.amount - r.tax);
  const refundAmount = share(refunds, 'amount', (r) => r.amount);
  const expenseRows = expenses.map((e) => ({ ...e, breakdown: parseBreakdown(e.breakdown) }));
  const inputTaxOf = (e: (typeof expenseRows)[number]) => (e.breakdown === null ? null : e.breakdown.reduce((sum, b) => sum + b.tax_amount, 0));
  const expenseNet = share(expenseRows, 'net', (r) => r.net);
  const expenseAmount = share(expenseRows, 'amount', (r) => r.amount);
  const inputTax = share(expenseRows, 'input_tax', inputTaxOf);

  const document = (r: (typeof invoices)[number] | (typeof creditNotes)[number], net: number, tax: number) => ({
    id: r.id, number: r.number, client_id: r.client_id, project_id: r.project_id, issue_date: r.day, currency: r.currency,
    net: r.net, tax: r.tax, total: r.net + r.tax, tax_breakdown: parseBreakdown(r.breakdown) ?? [],
    converted: { net, tax, total: net + tax },
  });
  return {
    currency: target,
    period: { from: query.from, to: query.to },
    rates_missing: converter.ratesMissing(),
    invoices: invoices.map((r) => document(r, invoiceNet(r)!, invoiceTax(r)!)),
    credit_notes: creditNotes.map((r) => ({ ...document(r, noteNet(r)!, noteTax(r)!), invoice_id: r.invoice_id })),
    payments: payments.map((r, i) => {
      const converted = { amount: paymentAmount(r)!, net: paymentNet(r)! };
      return {
        id: r.id, invoice_id: r.invoice_id, paid_on: r.day, currency: r.currency, method: r.method, reference: r.reference,
        amount: r.amount, tax: r.tax, net: r.amount - r.tax, converted: { ...converted, tax: converted.amount - converted.net },
        fx_gain_loss: converted.amount - atIssue(issueDays[i]!)!,
      };
    }),
    refunds: refunds.map((r) => {
      const converted = { amount: refundAmount(r)!, net: refundNet(r)! };
      return {
        id: r.id, payment_id: r.payment_id, invoice_id: r.invoice_id, refunded_on: r.day, currency: r.currency,
        amount: r.amount, tax: r.tax, net: r.amount - r.tax, converted: { ...converted, tax: converted.amount - converted.net },
      };
    }),
    expenses: expenseRows.map((r) => ({
      id: r.id, incurred_on: r.day, category: r.category, vendor: r.vendor, description: r.description, project_id: r.project_id, currency: r.currency,
      amount: r.amount, net: r.net, input_tax: inputTaxOf(r), tax_breakdown: r.breakdown,
      converted: { amount: expenseAmount(r)!, net: expenseNet(r)!, input_tax: inputTax(r) },
    })),
  };
}
