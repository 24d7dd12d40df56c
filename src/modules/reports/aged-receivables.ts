// GET /v1/reports/aged-receivables (§22): what each invoice still owed at the end of `as_of`, by
// days past its due date, per client. Only what was true on that day counts: invoices issued by then
// and not yet voided then (in the workspace's time zone), payments, refunds that did not fail and
// credit notes dated on or before it; an invoice overpaid then owed nothing. Each invoice's amount is
// converted at its issue date's rate.
//
// An invoice paid now, and paid before the UTC day `as_of` began, owed nothing on `as_of`: what
// settled it was dated on or before the day after it was recorded (a payment's `paid_on` is at most
// tomorrow; credit notes and refunds take the day they were made), and it has stayed paid since. So
// only open invoices, ones paid since then and ones voided after `as_of` are read, however many were
// settled long ago.
import { sql } from 'drizzle-orm';
import type { WorkspaceContext } from '../../lib/context';
import { exactFigure } from '../../lib/money';
import { addDays, startOfDayIn } from '../../lib/time';
import { dayConverter } from './conversion';
import { daySumsQueries, exactSum, readDaySums } from './day-sums';
import { convertedShares } from './shares';

export const AGE_BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'over_90'] as const;
type Bucket = (typeof AGE_BUCKETS)[number];
type Aged = Record<Bucket | 'total', bigint>;

function owedOn(ctx: WorkspaceContext, asOf: string) {
  const paidBefore = `${asOf}T00:00:00.000Z`;
  const voidedAfter = startOfDayIn(addDays(asOf, 1), ctx.timeZone);
  const late = sql`julianday(${asOf}) - julianday(i.due_date)`;
  const owed = sql`i.total
      - coalesce((SELECT sum(p.amount) FROM payments p WHERE p.invoice_id = i.id AND p.paid_on <= ${asOf}), 0)
      + coalesce((SELECT sum(r.amount) FROM refunds r WHERE r.invoice_id = i.id AND r.refunded_on <= ${asOf} AND r.status <> 'failed'), 0)
      - coalesce((SELECT sum(c.total) FROM credit_notes c WHERE c.invoice_id = i.id AND c.issue_date <= ${asOf}), 0)`;
  // Each status is sought in invoices_workspace_status_settled_idx, named so that SQLite never reads
  // every invoice issued by `as_of` from an issue-date index instead.
  const candidates = (status: string, since?: { column: string; at: string }) =>
    sql`SELECT i.currency, i.issue_date, i.client_id, ${owed} AS owed,
        CASE WHEN ${late} <= 0 THEN 'current' WHEN ${late} <= 30 THEN 'd1_30' WHEN ${late} <= 60 THEN 'd31_60' WHEN ${late} <= 90 THEN 'd61_90' ELSE 'over_90' END AS bucket
      FROM invoices i INDEXED BY invoices_workspace_status_settled_idx
      WHERE i.workspace_id = ${ctx.workspaceId} AND i.status = ${status} AND i.issue_date <= ${asOf}${since ? sql` AND ${sql.raw(`i.${since.column}`)} >= ${since.at}` : sql``}`;
  return sql`SELECT 'receivable' AS kind, o.currency, o.issue_date AS day, o.client_id, o.bucket, sum(o.owed) AS amount,
      (SELECT name FROM clients WHERE id = o.client_id) AS name
    FROM (${candidates('open')} UNION ALL ${candidates('paid', { column: 'paid_at', at: paidBefore })}
      UNION ALL ${candidates('void', { column: 'voided_at', at: voidedAfter })}) o
    WHERE o.owed > 0
    GROUP BY o.issue_date, o.currency, o.client_id, o.bucket`;
}

type AgedQuery = { as_of: string; currency?: string };

/** The report's one batch (its query plans are tested: test/reports/query-plans.test.ts). */
export const agedReceivablesQueries = (ctx: WorkspaceContext, q: AgedQuery) =>
  daySumsQueries(
    ctx, q.currency, () => owedOn(ctx, q.as_of),
    { client_id: sql<string>`g.client_id`, name: sql<string>`g.name`, bucket: sql<Bucket>`g.bucket`, amount: exactSum('amount') },
    sql`g.currency, g.day, g.client_id, g.bucket`,
  );

export async function agedReceivables(ctx: WorkspaceContext, q: AgedQuery) {
  const { currency, first, sums } = await readDaySums(ctx, q.currency, agedReceivablesQueries(ctx, q));
  const converter = await dayConverter(ctx.env, currency, sums, first, 'currency');
  const converted = convertedShares(sums, (s) => `${s.currency}|${s.day}`, (s) => BigInt(s.amount), (sum, s) => converter.convert(sum, s));

  const empty = (): Aged => ({ current: 0n, d1_30: 0n, d31_60: 0n, d61_90: 0n, over_90: 0n, total: 0n });
  const clients = new Map<string, { name: string; aged: Aged }>();
  const totals = empty();
  for (const [sum, amount] of converted) {
    const client = clients.get(sum.client_id) ?? { name: sum.name, aged: empty() };
    for (const aged of [client.aged, totals]) {
      aged[sum.bucket] += amount;
      aged.total += amount;
    }
    clients.set(sum.client_id, client);
  }
  const exact = (aged: Aged) => Object.fromEntries(Object.entries(aged).map(([field, value]) => [field, exactFigure(value, 'currency', field)])) as Record<keyof Aged, number>;
  return {
    currency,
    as_of: q.as_of,
    rows: [...clients]
      .sort(([idA, a], [idB, b]) => a.name.localeCompare(b.name) || (idA < idB ? -1 : 1))
      .map(([client_id, { name, aged }]) => ({ client_id, name, ...exact(aged) })),
    totals: exact(totals),
    rates_missing: converter.ratesMissing(),
  };
}
