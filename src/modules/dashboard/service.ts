// The dashboard: what was invoiced, collected and spent in a period, what is owed now, and the
// latest activity. Sums are taken per currency in SQL; each is converted into the requested
// currency at the cached rates (half away from zero), while by_currency keeps the originals.
import { invalidField } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';
import { exactFigure, sumFromSql } from '../../lib/money';
import { todayIn } from '../../lib/time';
import { serializeActivity } from '../events/serialize';
import { getRatesSnapshot } from '../rates/refresh';
import { convertSumAtSnapshot, isStale } from '../rates/snapshot';
import { dashboardQueries, type Period } from './queries';

// Sums stay BigInt until they are answered, and are answered only when exact (money.ts, sums).
type Figures = { invoiced: bigint; collected: bigint; outstanding: bigint; expenses: bigint };
const FIGURES = ['invoiced', 'collected', 'outstanding', 'expenses'] as const;
// Converted into the totals but not shown per currency.
type Converted = Figures & { tax_collected: bigint; input_tax: bigint };

export async function buildDashboard(ctx: WorkspaceContext, period: Period, currency: string) {
  // Overdue is due before the workspace's today (§5), not UTC's.
  const today = todayIn(ctx.timeZone);
  // The rates are read beside the batch, so `rates` always shows what is cached.
  const [[invoiced, collected, taxCollected, open, spent, inputTax, statusCounts, clientCount, activeProjects, recent], snapshot] = await Promise.all([
    dashboardQueries(ctx, period, today),
    getRatesSnapshot(ctx.env),
  ]);

  const byCurrency = new Map<string, Converted>();
  const add = (code: string, field: keyof Converted, amount: string) => {
    const row = byCurrency.get(code) ?? { invoiced: 0n, collected: 0n, tax_collected: 0n, outstanding: 0n, expenses: 0n, input_tax: 0n };
    row[field] += sumFromSql(amount);
    byCurrency.set(code, row);
  };
  invoiced.forEach((r) => add(r.currency, 'invoiced', r.amount));
  collected.forEach((r) => add(r.currency, 'collected', r.amount));
  taxCollected.forEach((r) => add(r.currency, 'tax_collected', r.amount));
  open.forEach((r) => add(r.currency, 'outstanding', r.outstanding));
  spent.forEach((r) => add(r.currency, 'expenses', r.amount));
  inputTax.forEach((r) => add(r.currency, 'input_tax', r.amount));

  const needsRates = [...byCurrency.keys()].some((code) => code !== currency);
  // A currency the caller chose but no rate is published for is their input to fix, not our outage.
  if (needsRates && snapshot && currency !== 'USD' && snapshot.rates[currency] === undefined) {
    throw invalidField('currency', `No exchange rate is published for ${currency}.`);
  }
  // A stored currency the provider no longer publishes never fails the dashboard: it is shown in
  // by_currency as not converted, left out of the totals, and named in rates.missing. (With no
  // snapshot at all, converting is impossible: convertAtSnapshot answers 503.)
  const convertible = (code: string) => code === currency || !snapshot || code === 'USD' || snapshot.rates[code] !== undefined;
  const missing = [...byCurrency.keys()].filter((code) => !convertible(code)).sort();
  const convert = (amount: bigint, from: string) => (convertible(from) ? convertSumAtSnapshot(snapshot, amount, from, currency) : 0n);

  const sums = { invoiced: 0n, collected: 0n, tax_collected: 0n, outstanding: 0n, overdue: 0n, expenses: 0n, input_tax: 0n, profit: 0n };
  for (const [code, figures] of byCurrency) for (const field of [...FIGURES, 'tax_collected', 'input_tax'] as const) sums[field] += convert(figures[field], code);
  for (const r of open) sums.overdue += convert(sumFromSql(r.overdue), r.currency);
  // Tax collected is owed to the state, not earned (§5); input tax on expenses is reclaimed from it, not spent (§21).
  sums.profit = sums.collected - sums.tax_collected - (sums.expenses - sums.input_tax);
  // A converted total past 2^53 − 1 is a 422 on `currency` (one with a smaller unit may carry it);
  // a sum in its own currency past it, on `from` (a shorter period).
  const totals = Object.fromEntries(
    Object.entries(sums).map(([field, value]) => [field, exactFigure(value, 'currency', `totals.${field} in ${currency}`)]),
  ) as Record<keyof typeof sums, number>;
  const exactFigures = (code: string, figures: Figures) =>
    Object.fromEntries(FIGURES.map((field) => [field, exactFigure(figures[field], 'from', `${field} in ${code}`)])) as Record<keyof Figures, number>;

  const invoiceCounts = { draft: 0, open: 0, paid: 0, void: 0, overdue: open.reduce((n, r) => n + r.overdueCount, 0) };
  for (const r of statusCounts) invoiceCounts[r.status] = r.n;

  return {
    currency,
    period,
    totals,
    counts: { clients: clientCount[0]?.n ?? 0, active_projects: activeProjects[0]?.n ?? 0, invoices: invoiceCounts },
    by_currency: [...byCurrency]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, figures]) => ({ currency: code, ...exactFigures(code, figures), converted: convertible(code) })),
    rates: { ...(snapshot ? { as_of: snapshot.as_of, stale: isStale(snapshot) } : { as_of: null, stale: false }), missing },
    activity: recent.map(serializeActivity),
  };
}
