// §22: each report reads its period with one D1 round trip, from indexes. SQLite's own plan for
// every statement of each report's batch names the indexes the report relies on and reads no
// record table from end to end; and running the report spends one query.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemContext, type WorkspaceContext } from '../../src/lib/context';
import { createDb } from '../../src/lib/db';
import { QueryBudget, withQueryBudget } from '../../src/lib/query-budget';
import { agedReceivables, agedReceivablesQueries } from '../../src/modules/reports/aged-receivables';
import { profitAndLoss, profitAndLossQueries, type ProfitAndLossQuery } from '../../src/modules/reports/profit-and-loss';
import { vatQueries, vatReport } from '../../src/modules/reports/vat';
import { call } from '../helpers/api';
import { createClient, createUser, type TestUser } from '../helpers/factories';
import { keepDayRates, putRates } from '../helpers/rates';

type Query = { toSQL(): { sql: string; params: unknown[] } };
const RECORD_TABLES = ['invoices', 'payments', 'refunds', 'credit_notes', 'expenses', 'clients', 'workspaces', 'exchange_rates', 'books_daily', 'books_fx_issue'];

/** The plan's lines, one per step, as `EXPLAIN QUERY PLAN` details. */
async function planOf(queries: readonly Query[]): Promise<string[]> {
  const lines: string[] = [];
  for (const query of queries) {
    const { sql, params } = query.toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
    lines.push(...plan.results.map((row) => row.detail));
  }
  return lines;
}

/**
 * A full read of a record table (`SCAN invoices`, `SCAN p`): what the indexes are there to avoid.
 * (The first day kept is min(day), one step into its index, which SQLite words as a scan of it.)
 */
function fullScans(plan: string[]): string[] {
  return plan.filter((line) => {
    if (line === 'SCAN exchange_rates USING COVERING INDEX exchange_rates_day_idx') return false;
    const scanned = /^SCAN (\w+)/.exec(line)?.[1];
    // g, o, s, x and d are the reports' own grouped sums and their days, b a tax breakdown's entries (json_each).
    return scanned !== undefined && !['g', 'o', 's', 'x', 'd', 'b'].includes(scanned) && (RECORD_TABLES.includes(scanned) || scanned.length <= 2);
  });
}

let owner: TestUser;
let ctx: WorkspaceContext;

beforeAll(async () => {
  await putRates({ EUR: 0.9 });
  await keepDayRates('2026-01-01', { EUR: 0.9 });
  owner = await createUser();
  const client = await createClient(owner.key, { currency: 'EUR' });
  const created = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, issue_date: '2026-02-01', line_items: [{ description: 'Work', quantity: 1, unit_amount: 10_000, tax_rate: 19 }] } });
  await call('POST', `/v1/invoices/${created.body.id}/send`, { key: owner.key, body: { email: false } });
  await call('POST', `/v1/invoices/${created.body.id}/payments`, { key: owner.key, body: { amount: 5_000, paid_on: '2026-02-10' } });
  const me = await call('GET', '/api/me', { key: owner.key });
  ctx = systemContext(env, me.body.workspace.id, 'test');
});

const year = { from: '2026-01-01', to: '2026-12-31' };
const pnl = (basis: 'accrual' | 'cash', group_by: 'month' | 'project'): ProfitAndLossQuery => ({ ...year, basis, group_by });

describe('the reports\' query plans', () => {
  it.each([
    // By month: the daily sums (books_daily) and payments by issue day (books_fx_issue) the triggers
    // keep, and the payments of the days at the period's ends.
    ['accrual, by month', { ...pnl('accrual', 'month'), from: '2026-01-15' }, ['b USING PRIMARY KEY', 'f USING PRIMARY KEY', 'p USING COVERING INDEX payments_workspace_paid_on_net_idx']],
    ['cash, by quarter', { ...pnl('cash', 'month'), group_by: 'quarter' as const }, ['b USING PRIMARY KEY', 'f USING PRIMARY KEY']],
    // By project: the records, from the indexes.
    ['accrual, by project', pnl('accrual', 'project'), ['i USING COVERING INDEX invoices_workspace_issue_net_idx', 'c USING INDEX credit_notes_workspace_issue_idx', 'e USING COVERING INDEX expenses_workspace_incurred_net_idx', 'p USING COVERING INDEX payments_workspace_paid_on_net_idx']],
    ['cash, by project', pnl('cash', 'project'), ['p USING COVERING INDEX payments_workspace_paid_on_net_idx', 'r USING INDEX refunds_workspace_refunded_on_idx', 'e USING COVERING INDEX expenses_workspace_incurred_net_idx']],
  ])('profit and loss, %s, seeks its period in indexes', async (_, query, indexes) => {
    const plan = await planOf(profitAndLossQueries(ctx, query));
    for (const index of indexes) expect(plan.some((line) => line.includes(`SEARCH ${index} (workspace_id=? AND`)), `${index}\n${plan.join('\n')}`).toBe(true);
    // A record's day rate is one seek on the rates' key.
    expect(plan.some((line) => line.includes('USING COVERING INDEX exchange_rates_lookup_idx (currency=? AND day<?)'))).toBe(true);
    expect(fullScans(plan)).toEqual([]);
  });

  it('aged receivables seeks open invoices and those paid or voided since, never every invoice issued', async () => {
    const plan = await planOf(agedReceivablesQueries(ctx, { as_of: '2026-06-30' }));
    expect(plan.filter((line) => line.includes('USING INDEX invoices_workspace_status_settled_idx (workspace_id=? AND status=?'))).toHaveLength(3);
    expect(plan.some((line) => line.includes('USING INDEX invoices_workspace_issue'))).toBe(false);
    for (const index of ['payments_invoice_idx (invoice_id=?)', 'refunds_invoice_idx (invoice_id=? AND refunded_on<?)', 'credit_notes_invoice_idx (invoice_id=?)']) {
      expect(plan.some((line) => line.includes(index)), index).toBe(true);
    }
    expect(fullScans(plan)).toEqual([]);
  });

  it('the VAT report seeks its period in indexes', async () => {
    const plan = await planOf(vatQueries(ctx, year));
    for (const index of ['invoices_workspace_issue_net_idx', 'credit_notes_workspace_issue_idx', 'expenses_workspace_incurred_net_idx']) {
      expect(plan.some((line) => line.includes(`USING INDEX ${index} (workspace_id=? AND`)), index).toBe(true);
    }
    expect(fullScans(plan)).toEqual([]);
  });

  it('each report spends one D1 round trip', async () => {
    for (const run of [
      (c: WorkspaceContext) => profitAndLoss(c, pnl('accrual', 'month')),
      (c: WorkspaceContext) => profitAndLoss(c, { ...pnl('cash', 'project'), currency: 'USD' }),
      (c: WorkspaceContext) => agedReceivables(c, { as_of: '2026-06-30', currency: 'USD' }),
      (c: WorkspaceContext) => vatReport(c, year),
    ]) {
      const budget = new QueryBudget(10);
      const counted = withQueryBudget(env, budget);
      await run({ ...ctx, env: counted, db: createDb(counted.DB) });
      expect(budget.used).toBe(1);
    }
  });
});
