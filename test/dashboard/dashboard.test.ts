import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayUtc } from '../../src/lib/time';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createClient, createProject, createUser } from '../helpers/factories';
import { deleteRates, putRates } from '../helpers/rates';

const year = todayUtc().slice(0, 4);
const inYear = (mmdd: string) => `${year}-${mmdd}`;

async function invoice(key: string, clientId: string, unitAmount: number, issueDate: string, dueDate: string, currency?: string) {
  const res = await call('POST', '/v1/invoices', {
    key,
    body: { client_id: clientId, currency, issue_date: issueDate, due_date: dueDate, line_items: [{ description: 'Work', quantity: 1, unit_amount: unitAmount }] },
  });
  expect(res.status).toBe(201);
  return res.body;
}
const send = (key: string, id: string) => call('POST', `/v1/invoices/${id}/send`, { key });
const pay = (key: string, id: string, amount: number, paidOn: string) => call('POST', `/v1/invoices/${id}/payments`, { key, body: { amount, paid_on: paidOn } });
const spend = (key: string, amount: number, currency: string, incurredOn: string) =>
  call('POST', '/api/workflow/expenses', { key, body: { category: 'software', amount, currency, incurred_on: incurredOn } });

describe('the dashboard', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is all zeros for an empty workspace, and needs no rates', async () => {
    const user = await createUser();
    await deleteRates();
    const res = await call('GET', '/api/workflow/dashboard', { key: user.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'USD',
      period: { from: `${year}-01-01`, to: todayUtc() },
      totals: { invoiced: 0, collected: 0, tax_collected: 0, outstanding: 0, overdue: 0, expenses: 0, input_tax: 0, profit: 0 },
      counts: { clients: 0, active_projects: 0, invoices: { draft: 0, open: 0, paid: 0, void: 0, overdue: 0 } },
      by_currency: [],
      rates: { as_of: null, stale: false, missing: [] },
      activity: [],
    });
  });

  it('adds up several currencies in USD, every figure checked by hand', async () => {
    const user = await createUser();
    await putRates({ EUR: 0.8, JPY: 150, KWD: 0.3 });
    const usdClient = await createClient(user.key);
    const eurClient = await createClient(user.key, { currency: 'EUR' });
    await createProject(user.key, { client_id: usdClient.id });
    await createProject(user.key, { status: 'completed' });
    const farDue = addDays(todayUtc(), 60);

    // USD: $1,000.00 open, $400.00 of it paid in the period.
    const usd = await invoice(user.key, usdClient.id, 100_000, inYear('01-05'), farDue);
    await send(user.key, usd.id);
    await pay(user.key, usd.id, 40_000, inYear('01-20'));
    // EUR: €500.00, paid in full in the period.
    const eur = await invoice(user.key, eurClient.id, 50_000, inYear('01-10'), farDue);
    await send(user.key, eur.id);
    await pay(user.key, eur.id, 50_000, inYear('01-25'));
    // JPY: ¥30,000 open and overdue (due 1 January).
    const jpy = await invoice(user.key, usdClient.id, 30_000, inYear('01-01'), inYear('01-01'), 'JPY');
    await send(user.key, jpy.id);
    // A draft and a void invoice count in `counts` only.
    await invoice(user.key, usdClient.id, 999_999, inYear('01-02'), farDue);
    const voided = await invoice(user.key, usdClient.id, 777_777, inYear('01-03'), farDue);
    await send(user.key, voided.id);
    await call('POST', `/v1/invoices/${voided.id}/void`, { key: user.key });
    // Expenses: $120.00 and 4.500 KWD in the period; one last year, outside it.
    await spend(user.key, 12_000, 'USD', inYear('01-15'));
    await spend(user.key, 4_500, 'KWD', inYear('01-16'));
    await spend(user.key, 99_999, 'USD', `${Number(year) - 1}-12-31`);

    const res = await call('GET', '/api/workflow/dashboard', { key: user.key });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({
      invoiced: 100_000 + 62_500 + 20_000, // $1000 + €500/0.8 = $625 + ¥30000/150 = $200
      collected: 40_000 + 62_500, // $400 + €500 → $625
      tax_collected: 0, // no line is taxed
      outstanding: 60_000 + 20_000, // $600 still due on USD + ¥30000 → $200
      overdue: 20_000, // the yen invoice
      expenses: 12_000 + 1_500, // $120 + 4.500 KWD / 0.3 = $15.00
      input_tax: 0, // none was accepted from a received document
      profit: 102_500 - 13_500,
    });
    expect(res.body.counts).toEqual({ clients: 2, active_projects: 1, invoices: { draft: 1, open: 2, paid: 1, void: 1, overdue: 1 } });
    expect(res.body.by_currency).toEqual([
      { currency: 'EUR', invoiced: 50_000, collected: 50_000, outstanding: 0, expenses: 0, converted: true },
      { currency: 'JPY', invoiced: 30_000, collected: 0, outstanding: 30_000, expenses: 0, converted: true },
      { currency: 'KWD', invoiced: 0, collected: 0, outstanding: 0, expenses: 4_500, converted: true },
      { currency: 'USD', invoiced: 100_000, collected: 40_000, outstanding: 60_000, expenses: 12_000, converted: true },
    ]);
    expect(res.body.rates).toEqual({ as_of: expect.any(String), stale: false, missing: [] });
    // The latest 20 events, newest first, each with who did it.
    const events = (await call('GET', '/api/events?limit=20', { key: user.key })).body.data;
    expect(res.body.activity).toEqual(
      events.map((e: { id: string; type: string; data: { object: { id: string } }; created_at: string; actor: unknown }) => ({
        id: e.id, type: e.type, subject_id: e.data.object.id, summary: expect.any(String), occurred_at: e.created_at, actor: e.actor,
      })),
    );
    expect(res.body.activity[0]).toMatchObject({ type: 'expense.created', subject_id: expect.stringMatching(/^exp_/), actor: { type: 'user', id: user.id } });

    // The same figures in euros: each per-currency sum converted, rounded half away from zero.
    const inEur = await call('GET', '/api/workflow/dashboard?currency=EUR', { key: user.key });
    expect(inEur.body.totals).toMatchObject({
      invoiced: 80_000 + 50_000 + 16_000, // $1000 × 0.8 + €500 + ¥30000 × 0.8/150
      expenses: 9_600 + 1_200, // $120 × 0.8 + 4.500 KWD × 0.8/0.3 = €12.00
    });
  });

  it('shows the latest 20 events only', async () => {
    const user = await createUser();
    for (let i = 0; i < 23; i++) await spend(user.key, 100 + i, 'USD', todayUtc());
    const res = await call('GET', '/api/workflow/dashboard', { key: user.key });
    expect(res.body.activity).toHaveLength(20);
    expect(res.body.totals.expenses).toBe(23 * 100 + (22 * 23) / 2);
  });

  it('counts only what falls in the requested period', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const early = await invoice(user.key, client.id, 10_000, '2025-03-01', '2025-12-31');
    await send(user.key, early.id);
    await pay(user.key, early.id, 10_000, '2025-03-05');
    await spend(user.key, 2_500, 'USD', '2025-03-10');
    const march = await call('GET', '/api/workflow/dashboard?from=2025-03-01&to=2025-03-31', { key: user.key });
    expect(march.body.totals).toEqual({ invoiced: 10_000, collected: 10_000, tax_collected: 0, outstanding: 0, overdue: 0, expenses: 2_500, input_tax: 0, profit: 7_500 });
    const april = await call('GET', '/api/workflow/dashboard?from=2025-04-01&to=2025-04-30', { key: user.key });
    expect(april.body.totals).toEqual({ invoiced: 0, collected: 0, tax_collected: 0, outstanding: 0, overdue: 0, expenses: 0, input_tax: 0, profit: 0 });
  });

  it('leaves a currency the rates lost out of the totals, and says so, instead of failing', async () => {
    const user = await createUser();
    await putRates({ EUR: 0.8, SEK: 10 });
    await spend(user.key, 10_000, 'USD', todayUtc());
    await spend(user.key, 50_000, 'SEK', todayUtc());
    // The provider stops publishing SEK.
    await putRates({ EUR: 0.8 });
    const res = await call('GET', '/api/workflow/dashboard', { key: user.key });
    expect(res.status).toBe(200);
    expect(res.body.totals.expenses).toBe(10_000);
    expect(res.body.by_currency).toEqual([
      { currency: 'SEK', invoiced: 0, collected: 0, outstanding: 0, expenses: 50_000, converted: false },
      { currency: 'USD', invoiced: 0, collected: 0, outstanding: 0, expenses: 10_000, converted: true },
    ]);
    expect(res.body.rates.missing).toEqual(['SEK']);
    // In EUR too: USD converts, SEK stays out.
    const inEur = await call('GET', '/api/workflow/dashboard?currency=EUR', { key: user.key });
    expect(inEur.body.totals.expenses).toBe(8_000);
    expect(inEur.body.rates.missing).toEqual(['SEK']);
  });

  it('answers 503 when it must convert and has no rates, and 422 for bad input', async () => {
    const user = await createUser();
    await deleteRates();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Promise.reject(new TypeError('offline')));
    await spend(user.key, 100, 'EUR', todayUtc());
    expectError(await call('GET', '/api/workflow/dashboard', { key: user.key }), 503, 'rates_unavailable');
    expect((await call('GET', '/api/workflow/dashboard?currency=EUR', { key: user.key })).body.totals.expenses).toBe(100);

    await putRates({ EUR: 0.9 });
    const unquoted = await call('GET', '/api/workflow/dashboard?currency=CHF', { key: user.key });
    expectError(unquoted, 422, 'validation_failed');
    expect(errorPaths(unquoted)).toEqual(['currency']);
    expect((await call('GET', '/api/workflow/dashboard', { key: user.key })).body.rates).toEqual({ as_of: expect.any(String), stale: false, missing: [] });

    const reversed = await call('GET', '/api/workflow/dashboard?from=2026-05-01&to=2026-04-01', { key: user.key });
    expect(errorPaths(reversed)).toEqual(['from']);
    const bad = await call('GET', '/api/workflow/dashboard?from=yesterday&currency=DOGE', { key: user.key });
    expectError(bad, 422, 'validation_failed');
    expect(errorPaths(bad).sort()).toEqual(['currency', 'from']);
  });

  it('shows only the caller\'s own figures, and requires a key', async () => {
    const [owner, other] = [await createUser(), await createUser()];
    await spend(owner.key, 5_000, 'USD', todayUtc());
    const theirs = await call('GET', '/api/workflow/dashboard', { key: other.key });
    expect(theirs.body.totals.expenses).toBe(0);
    expect(theirs.body.activity).toEqual([]);
    await expectKeyRequired('GET', '/api/workflow/dashboard');
  });
});
