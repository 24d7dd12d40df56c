// §22, realized exchange differences: a payment in another currency than the workspace's
// `default_currency` was worth one amount of it on its invoice's issue date and another on its own
// date. `fx` says both rates (units of `default_currency` per unit of the payment's, from the rates
// kept for each day: rates/history.ts) and the difference, each side converted exactly and rounded
// half away from zero. The profit and loss report adds these up as `fx_gain_loss`.
import { sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { convertMinor, crossRate, ratioToDecimal } from '../../lib/money';
import { firstDayRates, rateOnOrBefore, resolveDayRate } from '../rates/history';
import { getRatesSnapshot } from '../rates/refresh';
import type { RatesSnapshot } from '../rates/snapshot';
import type { PaymentRow } from './serialize';

export type PaymentFx = { rate_at_issue: number; rate_at_payment: number; difference: number };

/** Rates are shown to 10 decimals; the difference is worked out from the exact ones. */
const RATE_DECIMALS = 10;

/** Each payment's `fx` (null in the workspace's own currency, or with no rate for it at all). One round trip. */
export async function paymentsFx(ctx: WorkspaceContext, invoice: { currency: string; issueDate: string }, payments: readonly PaymentRow[]): Promise<Map<string, PaymentFx | null>> {
  const result = new Map<string, PaymentFx | null>(payments.map((p) => [p.id, null]));
  if (!payments.length) return result;
  const days = [...new Set([invoice.issueDate, ...payments.map((p) => p.paidOn)])];
  const target = sql`(SELECT default_currency FROM workspaces WHERE id = ${ctx.workspaceId})`;
  const dayList = sql.join(days.map((d) => sql`SELECT ${d} AS day`), sql` UNION ALL `);
  const [[workspace], first, rates] = await ctx.db.batch([
    ctx.db.select({ code: sql<string>`default_currency` }).from(sql`workspaces`).where(sql`id = ${ctx.workspaceId}`),
    firstDayRates(ctx.db),
    ctx.db
      .select({ day: sql<string>`d.day`, from_rate: sql<number | null>`${rateOnOrBefore(invoice.currency, sql`d.day`)}`, to_rate: sql<number | null>`${rateOnOrBefore(target, sql`d.day`)}` })
      .from(sql`(${dayList}) d`),
  ]);
  const defaultCurrency = workspace?.code;
  if (!defaultCurrency || defaultCurrency === invoice.currency) return result;

  const firstRates = new Map(first.map((row) => [row.currency, row.rate]));
  const byDay = new Map(rates.map((row) => [row.day, row]));
  const unknown = (code: string, found: number | null) => found === null && code !== 'USD' && !firstRates.has(code);
  const current: RatesSnapshot | null = rates.some((r) => unknown(invoice.currency, r.from_rate) || unknown(defaultCurrency, r.to_rate)) ? await getRatesSnapshot(ctx.env) : null;
  const rateOn = (day: string) => {
    const found = byDay.get(day)!;
    const from = resolveDayRate(invoice.currency, found.from_rate, firstRates, current);
    const to = resolveDayRate(defaultCurrency, found.to_rate, firstRates, current);
    return from && to ? crossRate({ [invoice.currency]: from.rate, [defaultCurrency]: to.rate }, invoice.currency, defaultCurrency) : undefined;
  };
  const atIssue = rateOn(invoice.issueDate);
  if (!atIssue) return result;
  for (const payment of payments) {
    const atPayment = rateOn(payment.paidOn);
    if (!atPayment) continue;
    const worth = (rate: typeof atIssue) => convertMinor(payment.amount, invoice.currency, defaultCurrency, rate);
    result.set(payment.id, {
      rate_at_issue: Number(ratioToDecimal(atIssue, RATE_DECIMALS)),
      rate_at_payment: Number(ratioToDecimal(atPayment, RATE_DECIMALS)),
      difference: worth(atPayment) - worth(atIssue),
    });
  }
  return result;
}
