// The monthly roll-ups behind the dashboard are kept by triggers; whatever happens to invoices,
// payments and expenses, they must equal the sums taken from the rows themselves.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { systemContext } from '../../src/lib/context';
import { splitPeriod } from '../../src/modules/dashboard/period';
import { openInvoiceSums } from '../../src/modules/dashboard/queries';
import { call } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const rows = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).all()).results;

describe('splitting a period', () => {
  it('reads whole months from the roll-ups and the edge days from the rows', () => {
    expect(splitPeriod({ from: '2026-01-01', to: '2026-11-22' })).toEqual({
      months: ['2026-01', '2026-10'], head: ['9999-12-31', '0000-01-01'], tail: ['2026-11-01', '2026-11-22'],
    });
    expect(splitPeriod({ from: '2026-01-15', to: '2026-03-31' })).toEqual({
      months: ['2026-02', '2026-03'], head: ['2026-01-15', '2026-01-31'], tail: ['9999-12-31', '0000-01-01'],
    });
    expect(splitPeriod({ from: '2026-02-03', to: '2026-02-20' })).toEqual({
      months: ['9999-12', '0000-01'], head: ['2026-02-03', '2026-02-20'], tail: ['9999-12-31', '0000-01-01'],
    });
    expect(splitPeriod({ from: '2024-12-31', to: '2025-03-01' })).toEqual({
      months: ['2025-01', '2025-02'], head: ['2024-12-31', '2024-12-31'], tail: ['2025-03-01', '2025-03-01'],
    });
  });
});

describe('open invoices', () => {
  it('are summed from an index alone, so the dashboard does not read every open invoice from the table', async () => {
    const { sql, params } = openInvoiceSums(systemContext(env, 'ws_any', 'test'), '2026-11-28').toSQL();
    const plan = (await rows(`EXPLAIN QUERY PLAN ${sql}`, ...params)).map((step) => (step as { detail: string }).detail);
    expect(plan.join('\n')).toContain('USING COVERING INDEX invoices_workspace_open_owed_idx');
  });
});

describe('monthly roll-ups', () => {
  it('match the rows after creating, sending, paying, voiding, editing and deleting', async () => {
    const user = await createUser();
    await putRates({ EUR: 0.8, GBP: 0.75 });
    const client = await createClient(user.key, { currency: 'EUR' });
    const make = (issue: string) => createInvoice(user.key, { client_id: client.id, issue_date: issue, due_date: issue });
    const [a, b, c] = [await make('2026-01-10'), await make('2026-01-20'), await make('2026-02-05')];
    for (const inv of [a, b, c]) await call('POST', `/v1/invoices/${inv.id}/send`, { key: user.key });
    await call('POST', `/v1/invoices/${a.id}/payments`, { key: user.key, body: { amount: a.total, paid_on: '2026-02-01' } });
    await call('POST', `/v1/invoices/${b.id}/void`, { key: user.key });
    const draft = await make('2026-03-01');
    await call('DELETE', `/v1/invoices/${draft.id}`, { key: user.key });
    const expense = (await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'travel', amount: 700, incurred_on: '2026-01-31' } })).body;
    await call('PATCH', `/api/workflow/expenses/${expense.id}`, { key: user.key, body: { amount: 900, incurred_on: '2026-02-01', currency: 'GBP' } });
    const gone = (await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'meals', amount: 300, incurred_on: '2026-01-05' } })).body;
    await call('DELETE', `/api/workflow/expenses/${gone.id}`, { key: user.key });

    const workspaceId = (await call('GET', '/api/workspace', { key: user.key })).body.id;
    const kept = (table: string, column: string) =>
      rows(`SELECT month, currency, ${column} AS amount FROM workspace_${table} WHERE workspace_id = ? AND ${column} != 0 ORDER BY 1, 2`, workspaceId);
    expect(await kept('invoice_monthly_totals', 'invoiced')).toEqual(
      await rows("SELECT substr(issue_date, 1, 7) AS month, currency, sum(total) AS amount FROM invoices WHERE workspace_id = ? AND status IN ('open', 'paid') GROUP BY 1, 2 ORDER BY 1, 2", workspaceId),
    );
    expect(await kept('payment_monthly_totals', 'collected')).toEqual(
      await rows('SELECT substr(paid_on, 1, 7) AS month, currency, sum(amount) AS amount FROM payments WHERE workspace_id = ? GROUP BY 1, 2 ORDER BY 1, 2', workspaceId),
    );
    expect(await kept('expense_monthly_totals', 'spent')).toEqual([{ month: '2026-02', currency: 'GBP', amount: 900 }]);
    expect(await kept('invoice_monthly_totals', 'invoiced')).toEqual([
      { month: '2026-01', currency: 'EUR', amount: a.total },
      { month: '2026-02', currency: 'EUR', amount: c.total },
    ]);

    // A period that cuts months in half reads the cut days from the rows.
    const mid = await call('GET', '/api/workflow/dashboard?from=2026-01-15&to=2026-02-04&currency=EUR', { key: user.key });
    expect(mid.body.totals).toMatchObject({ invoiced: 0, collected: a.total });
    const early = await call('GET', '/api/workflow/dashboard?from=2026-01-01&to=2026-01-15&currency=EUR', { key: user.key });
    expect(early.body.totals.invoiced).toBe(a.total);
  });
});
