// §22: profit and loss, accrual and cash, by month, quarter and project, each record converted at
// its own date's rate; realized exchange differences; who may read it; what a bad period answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createClient, createProject, createUser, type TestUser } from '../helpers/factories';
import { keepDayRates, putRates } from '../helpers/rates';

let owner: TestUser;

async function sentInvoice(key: string, body: Record<string, unknown>) {
  const created = await call('POST', '/v1/invoices', { key, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call('POST', `/v1/invoices/${created.body.id}/send`, { key, body: { email: false } });
  expect(sent.status).toBe(200);
  return sent.body;
}

async function pay(key: string, id: string, amount: number, paid_on: string) {
  expect((await call('POST', `/v1/invoices/${id}/payments`, { key, body: { amount, paid_on } })).status).toBe(200);
}

async function spend(key: string, body: Record<string, unknown>) {
  expect((await call('POST', '/api/workflow/expenses', { key, body: { category: 'software', ...body } })).status).toBe(201);
}

const report = (key: string, query: string) => call('GET', `/v1/reports/profit-and-loss?${query}`, { key });
const Q1 = 'from=2026-01-01&to=2026-03-31';

let projectId: string;
let euroInvoiceId: string;
let dollarInvoiceId: string;

beforeAll(async () => {
  await putRates({ EUR: 0.85 });
  // 1 USD is 0.80 EUR from January, 0.90 EUR from February.
  await keepDayRates('2026-01-01', { EUR: 0.8 });
  await keepDayRates('2026-02-01', { EUR: 0.9 });
  owner = await createUser();
  expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { default_currency: 'EUR' } })).status).toBe(200);
  const euro = await createClient(owner.key, { currency: 'EUR' });
  const dollar = await createClient(owner.key, { currency: 'USD' });
  projectId = (await createProject(owner.key, { client_id: euro.id, currency: 'EUR' })).id;

  // 1,000.00 EUR + 19 % in the project, 595.00 of it paid in February (95.00 of that is tax).
  const euroInvoice = await sentInvoice(owner.key, {
    client_id: euro.id, project_id: projectId, issue_date: '2026-01-15', line_items: [{ description: 'Design', quantity: 1, unit_amount: 100_000, tax_rate: 19 }],
  });
  await pay(owner.key, euroInvoice.id, 59_500, '2026-02-05');
  euroInvoiceId = euroInvoice.id;
  // 500.00 USD without tax: 400.00 EUR at January's rate; paid in February, worth 450.00 EUR then.
  const dollarInvoice = await sentInvoice(owner.key, { client_id: dollar.id, issue_date: '2026-01-20', line_items: [{ description: 'Prints', quantity: 1, unit_amount: 50_000 }] });
  await pay(owner.key, dollarInvoice.id, 50_000, '2026-02-10');
  dollarInvoiceId = dollarInvoice.id;
  // Neither a draft nor a void invoice is income.
  expect((await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: euro.id, issue_date: '2026-01-16', line_items: [{ description: 'Draft', quantity: 1, unit_amount: 7_000 }] } })).status).toBe(201);
  const voided = await sentInvoice(owner.key, { client_id: euro.id, issue_date: '2026-01-17', line_items: [{ description: 'Mistake', quantity: 1, unit_amount: 8_000 }] });
  expect((await call('POST', `/v1/invoices/${voided.id}/void`, { key: owner.key })).status).toBe(200);

  await spend(owner.key, { amount: 11_900, currency: 'EUR', incurred_on: '2026-01-31' });
  await spend(owner.key, { amount: 10_000, currency: 'USD', incurred_on: '2026-02-15' }); // 90.00 EUR

  // Another workspace's books never show.
  const stranger = await createUser();
  const theirs = await createClient(stranger.key, { currency: 'EUR' });
  const theirInvoice = await sentInvoice(stranger.key, { client_id: theirs.id, issue_date: '2026-01-15', line_items: [{ description: 'Theirs', quantity: 1, unit_amount: 99_900 }] });
  await pay(stranger.key, theirInvoice.id, 99_900, '2026-02-05');
});

describe('profit and loss', () => {
  it('counts invoices issued and expenses incurred, by month, in the workspace\'s currency (accrual)', async () => {
    const res = await report(owner.key, Q1);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'EUR', basis: 'accrual', group_by: 'month', period: { from: '2026-01-01', to: '2026-03-31' },
      rows: [
        { key: '2026-01', income: 140_000, expenses: 11_900, fx_gain_loss: 0, profit: 128_100 },
        { key: '2026-02', income: 0, expenses: 9_000, fx_gain_loss: 5_000, profit: -4_000 },
        { key: '2026-03', income: 0, expenses: 0, fx_gain_loss: 0, profit: 0 },
      ],
      totals: { income: 140_000, expenses: 20_900, fx_gain_loss: 5_000, profit: 124_100 },
      rates_missing: [],
    });
  });

  it('counts the net share of payments on their dates (cash), where the exchange difference is already in income', async () => {
    const res = await report(owner.key, `${Q1}&basis=cash`);
    expect(res.body.rows).toEqual([
      { key: '2026-01', income: 0, expenses: 11_900, fx_gain_loss: 0, profit: -11_900 },
      { key: '2026-02', income: 50_000 + 45_000, expenses: 9_000, fx_gain_loss: 5_000, profit: 86_000 },
      { key: '2026-03', income: 0, expenses: 0, fx_gain_loss: 0, profit: 0 },
    ]);
    expect(res.body.totals).toEqual({ income: 95_000, expenses: 20_900, fx_gain_loss: 5_000, profit: 74_100 });
  });

  it('shows each payment\'s realized exchange difference, which fx_gain_loss adds up', async () => {
    const dollar = await call('GET', `/v1/invoices/${dollarInvoiceId}/payments`, { key: owner.key });
    expect(dollar.body.data.map((p: { fx: unknown }) => p.fx)).toEqual([{ rate_at_issue: 0.8, rate_at_payment: 0.9, difference: 45_000 - 40_000 }]);
    // In the workspace's own currency there is none.
    const euro = await call('GET', `/api/workflow/invoices/${euroInvoiceId}/payments`, { key: owner.key });
    expect(euro.body.data.map((p: { fx: unknown }) => p.fx)).toEqual([null]);
  });

  it('splits an invoice\'s exchange difference over the months its payments came in', async () => {
    await keepDayRates('2026-03-01', { EUR: 0.95 });
    const user = await createUser();
    expect((await call('PATCH', '/api/workspace', { key: user.key, body: { default_currency: 'EUR' } })).status).toBe(200);
    const client = await createClient(user.key, { currency: 'USD' });
    // 1,000.00 USD issued at 0.80 (800.00 EUR), paid 333.33 at 0.90 and 666.67 at 0.95.
    const invoice = await sentInvoice(user.key, { client_id: client.id, issue_date: '2026-01-20', line_items: [{ description: 'Prints', quantity: 1, unit_amount: 100_000 }] });
    await pay(user.key, invoice.id, 33_333, '2026-02-10');
    await pay(user.key, invoice.id, 66_667, '2026-03-05');
    const fx = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: user.key })).body.data.map((p: { fx: { difference: number } }) => p.fx.difference);
    // 300.00 − 266.66 and 633.34 − 533.34 (266.664 and 533.336: their shares of 800.00 are 266.66 and 533.34).
    expect(fx.sort((a: number, b: number) => a - b)).toEqual([3_334, 10_000]);
    const months = await report(user.key, Q1);
    expect(months.body.rows.map((row: { fx_gain_loss: number }) => row.fx_gain_loss)).toEqual([0, 3_334, 10_000]);
    expect((await report(user.key, `${Q1}&group_by=quarter`)).body.totals.fx_gain_loss).toBe(13_334);
  });

  it('groups by quarter and by project, with the same totals', async () => {
    const quarters = await report(owner.key, `${Q1}&group_by=quarter`);
    expect(quarters.body.rows).toEqual([{ key: '2026-Q1', income: 140_000, expenses: 20_900, fx_gain_loss: 5_000, profit: 124_100 }]);
    const projects = await report(owner.key, `${Q1}&group_by=project`);
    expect(projects.body.rows).toEqual([
      { key: projectId, income: 100_000, expenses: 0, fx_gain_loss: 0, profit: 100_000 },
      { key: null, income: 40_000, expenses: 20_900, fx_gain_loss: 5_000, profit: 24_100 },
    ]);
    expect(projects.body.totals).toEqual(quarters.body.totals);
  });

  it('converts into another currency at each record\'s own date', async () => {
    const res = await report(owner.key, `${Q1}&currency=USD`);
    // 1,000.00 EUR at 0.80 is 1,250.00 USD; 119.00 EUR is 148.75 USD. The euro payment, 595.00 EUR,
    // was worth 743.75 USD on the invoice's date and 661.11 USD on its own: a loss of 82.64.
    expect(res.body.totals).toEqual({ income: 125_000 + 50_000, expenses: 14_875 + 10_000, fx_gain_loss: 66_111 - 74_375, profit: 175_000 - 24_875 - 8_264 });
  });

  it('names the dates it had no rate kept on or before, converted at the first day kept', async () => {
    await spend(owner.key, { amount: 8_000, currency: 'USD', incurred_on: '2025-12-20' });
    const res = await report(owner.key, 'from=2025-12-01&to=2025-12-31');
    expect(res.body.totals.expenses).toBe(6_400);
    expect(res.body.rates_missing).toEqual(['2025-12-20']);
  });

  it('is read by a viewer, and by no one without a key', async () => {
    const viewer = await addMember(owner.key, 'viewer');
    const res = await report(viewer.key, Q1);
    expect(res.status).toBe(200);
    expect(res.body.totals.income).toBe(140_000);
    expectError(await call('GET', `/v1/reports/profit-and-loss?${Q1}`), 401, 'unauthorized');
  });

  it.each([
    ['to before from', 'from=2026-03-01&to=2026-02-28', 'to'],
    ['more than 366 days', 'from=2026-01-01&to=2027-01-02', 'to'],
    ['a malformed date', 'from=2026-02-30&to=2026-03-31', 'from'],
    ['no period', 'basis=cash', 'from'],
    ['an unknown basis', `${Q1}&basis=cashflow`, 'basis'],
    ['an unknown grouping', `${Q1}&group_by=week`, 'group_by'],
    ['an unknown currency', `${Q1}&currency=EURO`, 'currency'],
  ])('answers 422 for %s', async (_, query, path) => {
    const res = await report(owner.key, query);
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toContain(path);
  });

  it('takes a full leap year', async () => {
    expect((await report(owner.key, 'from=2028-01-01&to=2028-12-31')).status).toBe(200);
  });
});
