// §21: the input tax of expenses accepted from received documents (their `tax_amount`) is reclaimable, so the
// dashboard shows it as `input_tax` and takes it out of the expenses in profit:
// profit = collected − tax_collected − (expenses − input_tax). Project totals likewise. Here the expenses are
// written as an accepted document writes them (test/inbound-documents/accept.test.ts goes through the API).
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { systemContext } from '../../src/lib/context';
import { splitPeriod } from '../../src/modules/dashboard/period';
import { inputTaxSums } from '../../src/modules/dashboard/queries';
import { call } from '../helpers/api';
import { createClient, createProject, createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const rows = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).all()).results;

/** An expense typed in, then given a received document's split, as accepting one writes it. */
async function documentExpense(key: string, body: { amount: number; tax: number; currency: string; incurred_on: string; project_id?: string }) {
  const res = await call('POST', '/api/workflow/expenses', {
    key, body: { category: 'software', amount: body.amount, currency: body.currency, incurred_on: body.incurred_on, project_id: body.project_id },
  });
  expect(res.status).toBe(201);
  await env.DB.prepare('UPDATE expenses SET net_amount = ?, tax_amount = ?, document_id = ? WHERE id = ?')
    .bind(body.amount - body.tax, body.tax, 'ind_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', res.body.id).run();
  return res.body.id as string;
}

const totals = async (key: string, query: string) => (await call('GET', `/api/workflow/dashboard?${query}`, { key })).body.totals;

describe('input tax', () => {
  it('is summed from accepted documents\' expenses, converted, and taken out of the expenses in profit', async () => {
    await putRates({ EUR: 0.8 });
    const user = await createUser();
    const client = await createClient(user.key);
    // 100.00 at 19 %, paid in full: collected 119.00, of which 19.00 tax.
    const invoice = (await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: client.id, issue_date: '2025-01-02', due_date: '2025-12-31', line_items: [{ description: 'Design', quantity: 1, unit_amount: 10_000, tax_rate: 19 }] },
    })).body;
    await call('POST', `/v1/invoices/${invoice.id}/send`, { key: user.key, body: { email: false } });
    await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: user.key, body: { amount: 11_900, paid_on: '2025-01-20' } });

    const laptop = await documentExpense(user.key, { amount: 11_900, tax: 1_900, currency: 'USD', incurred_on: '2025-01-10' });
    // €20.83 with €3.33 tax → $26.0375 and $4.1625: 2604 and 416 cents, half away from zero.
    const hosting = await documentExpense(user.key, { amount: 2_083, tax: 333, currency: 'EUR', incurred_on: '2025-02-03' });
    // Typed in by hand: no input tax.
    await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'meals', amount: 5_000, currency: 'USD', incurred_on: '2025-02-15' } });

    // Whole months, read from the roll-up.
    expect(await totals(user.key, 'from=2025-01-01&to=2025-03-31')).toMatchObject({
      collected: 11_900, tax_collected: 1_900, expenses: 11_900 + 2_604 + 5_000, input_tax: 1_900 + 416,
      profit: 11_900 - 1_900 - (19_504 - 2_316),
    });
    // Cut months: the days at either end read from the expenses themselves.
    expect(await totals(user.key, 'from=2025-01-05&to=2025-02-10')).toMatchObject({ expenses: 11_900 + 2_604, input_tax: 2_316, profit: 10_000 - (14_504 - 2_316) });
    expect(await totals(user.key, 'from=2025-02-04&to=2025-02-28')).toMatchObject({ expenses: 5_000, input_tax: 0, profit: -5_000 });
    // In euros: $19.00 → €15.20, and €3.33 as it is.
    expect(await totals(user.key, 'from=2025-01-01&to=2025-03-31&currency=EUR')).toMatchObject({ input_tax: 1_520 + 333 });

    // Moving, then deleting one keeps the roll-up and the rows in step.
    expect((await call('PATCH', `/api/workflow/expenses/${hosting}`, { key: user.key, body: { incurred_on: '2025-03-02' } })).status).toBe(200);
    expect(await totals(user.key, 'from=2025-02-01&to=2025-02-28')).toMatchObject({ input_tax: 0 });
    expect(await totals(user.key, 'from=2025-03-01&to=2025-03-31')).toMatchObject({ input_tax: 416 });
    expect((await call('DELETE', `/api/workflow/expenses/${laptop}`, { key: user.key })).status).toBe(204);
    expect(await totals(user.key, 'from=2025-01-01&to=2025-03-31')).toMatchObject({ expenses: 2_604 + 5_000, input_tax: 416, profit: 10_000 - (7_604 - 416) });

    const workspaceId = (await call('GET', '/api/workspace', { key: user.key })).body.id;
    expect(await rows('SELECT month, currency, input_tax FROM workspace_expense_monthly_totals WHERE workspace_id = ? AND input_tax != 0', workspaceId)).toEqual(
      await rows('SELECT substr(incurred_on, 1, 7) AS month, currency, sum(tax_amount) AS input_tax FROM expenses WHERE workspace_id = ? AND tax_amount IS NOT NULL GROUP BY 1, 2', workspaceId),
    );
  });

  it('reads the days at a period\'s ends from an index that holds only expenses with input tax', async () => {
    const { sql, params } = inputTaxSums(systemContext(env, 'ws_any', 'test'), splitPeriod({ from: '2025-01-05', to: '2025-02-10' })).toSQL();
    const plan = (await rows(`EXPLAIN QUERY PLAN ${sql}`, ...params)).map((step) => (step as { detail: string }).detail).join('\n');
    expect(plan).toContain('USING COVERING INDEX expenses_workspace_incurred_tax_idx');
  });

  it('is in project totals too: profit = paid − (expenses − input tax)', async () => {
    const user = await createUser();
    const project = await createProject(user.key);
    await documentExpense(user.key, { amount: 5_950, tax: 950, currency: 'USD', incurred_on: '2025-05-05', project_id: project.id });
    await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'travel', amount: 1_000, currency: 'USD', project_id: project.id } });
    const res = await call('GET', `/v1/projects/${project.id}`, { key: user.key });
    expect(res.body.totals).toEqual({ currency: 'USD', invoiced: 0, paid: 0, expenses: 6_950, input_tax: 950, profit: -6_000, unbilled_amount: 0 });
  });
});
