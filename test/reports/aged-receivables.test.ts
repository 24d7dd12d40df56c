// §22: what each invoice still owed at the end of `as_of`, by days past due, per client; later
// payments, refunds, credit notes and voids leave a past day's answer as it was.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createClient, createUser, type TestUser } from '../helpers/factories';
import { keepDayRates, putRates } from '../helpers/rates';
import { addDays, todayIn } from '../../src/lib/time';

// Later than anything dated below, so that what is done today happened after 2026-03-31.
const ZONE = 'Pacific/Kiritimati';
let owner: TestUser;
let alpha: { id: string };
let beta: { id: string };
let voidedOn: string;

async function sentInvoice(body: Record<string, unknown>) {
  const created = await call('POST', '/v1/invoices', { key: owner.key, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await call('POST', `/v1/invoices/${created.body.id}/send`, { key: owner.key, body: { email: false } })).status).toBe(200);
  return created.body;
}

const line = (unit_amount: number) => [{ description: 'Work', quantity: 1, unit_amount }];
async function pay(id: string, amount: number, paid_on: string) {
  const res = await call('POST', `/v1/invoices/${id}/payments`, { key: owner.key, body: { amount, paid_on } });
  expect(res.status).toBe(200);
  return res.body;
}

const aged = (key: string, query = '') => call('GET', `/v1/reports/aged-receivables${query}`, { key });
const none = { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, over_90: 0 };

beforeAll(async () => {
  await putRates({ EUR: 0.85 });
  await keepDayRates('2026-01-01', { EUR: 0.8 });
  await keepDayRates('2026-03-01', { EUR: 0.9 });
  owner = await createUser();
  expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { default_currency: 'EUR', time_zone: ZONE } })).status).toBe(200);
  alpha = await createClient(owner.key, { name: 'Alpha', currency: 'EUR' });
  beta = await createClient(owner.key, { name: 'Beta', currency: 'USD' });

  // 1,000.00 due 2026-02-09: 300.00 paid before the day, 200.00 after it.
  const a1 = await sentInvoice({ client_id: alpha.id, issue_date: '2026-01-10', due_date: '2026-02-09', line_items: line(100_000) });
  await pay(a1.id, 30_000, '2026-02-20');
  await pay(a1.id, 20_000, '2026-04-05');
  // 500.00 not yet due on the day, credited whole today.
  const a2 = await sentInvoice({ client_id: alpha.id, issue_date: '2026-03-20', due_date: '2026-04-19', line_items: line(50_000) });
  expect((await call('POST', `/v1/invoices/${a2.id}/credit-notes`, { key: owner.key, body: { reason: 'order_change', email: false } })).status).toBe(201);
  // 250.00 due on the day itself, voided today.
  const a3 = await sentInvoice({ client_id: alpha.id, issue_date: '2026-03-01', due_date: '2026-03-31', line_items: line(25_000) });
  expect((await call('POST', `/v1/invoices/${a3.id}/void`, { key: owner.key })).status).toBe(200);
  voidedOn = todayIn(ZONE);
  // Paid in full the day after it was issued.
  const a4 = await sentInvoice({ client_id: alpha.id, issue_date: '2026-01-05', line_items: line(9_900) });
  await pay(a4.id, 9_900, '2026-01-06');
  // 1,000.00 USD, paid in full before the day, 400.00 of it refunded today: 320.00 EUR at its issue date's rate.
  const b1 = await sentInvoice({ client_id: beta.id, issue_date: '2026-01-02', due_date: '2026-01-02', line_items: line(100_000) });
  const paid = await call('GET', `/v1/invoices/${(await pay(b1.id, 100_000, '2026-03-01')).id}/payments`, { key: owner.key });
  expect((await call('POST', `/v1/invoices/${b1.id}/payments/${paid.body.data[0].id}/refunds`, { key: owner.key, body: { amount: 40_000 } })).status).toBe(201);
  // 100.00 USD issued before the first day any rate was kept: converted at that first day's.
  await sentInvoice({ client_id: beta.id, issue_date: '2025-12-01', due_date: '2025-12-15', line_items: line(10_000) });
  // A draft owes nothing.
  expect((await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: alpha.id, issue_date: '2026-01-10', line_items: line(77_700) } })).status).toBe(201);

  const stranger = await createUser();
  const theirs = await createClient(stranger.key);
  const created = await call('POST', '/v1/invoices', { key: stranger.key, body: { client_id: theirs.id, issue_date: '2026-01-10', line_items: line(55_500) } });
  await call('POST', `/v1/invoices/${created.body.id}/send`, { key: stranger.key, body: { email: false } });
});

describe('aged receivables', () => {
  it('shows what was owed at the end of a past day, ignoring what happened after it', async () => {
    const res = await aged(owner.key, '?as_of=2026-03-31');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'EUR',
      as_of: '2026-03-31',
      rows: [
        { client_id: alpha.id, name: 'Alpha', ...none, current: 50_000 + 25_000, d31_60: 70_000, total: 145_000 },
        { client_id: beta.id, name: 'Beta', ...none, over_90: 8_000, total: 8_000 },
      ],
      totals: { ...none, current: 75_000, d31_60: 70_000, over_90: 8_000, total: 153_000 },
      rates_missing: ['2025-12-01'],
    });
  });

  it('shows today by default, with what happened since', async () => {
    const res = await aged(owner.key);
    expect(res.body.as_of).toBe(todayIn(ZONE));
    expect(res.body.rows).toEqual([
      { client_id: alpha.id, name: 'Alpha', ...none, over_90: 50_000, total: 50_000 },
      { client_id: beta.id, name: 'Beta', ...none, over_90: 32_000 + 8_000, total: 40_000 },
    ]);
  });

  it('counts a void from the day it was voided in the workspace\'s time zone', async () => {
    const before = await aged(owner.key, `?as_of=${addDays(voidedOn, -1)}`);
    const on = await aged(owner.key, `?as_of=${voidedOn}`);
    const alphaOf = (res: typeof on) => res.body.rows.find((row: { client_id: string }) => row.client_id === alpha.id);
    // The void (250.00) and the credit note (500.00) were both made that day there, whatever UTC's day was.
    expect(alphaOf(before).total - alphaOf(on).total).toBe(25_000 + 50_000);
  });

  it('converts into another currency and is read by a viewer', async () => {
    const viewer = await addMember(owner.key, 'viewer');
    const res = await aged(viewer.key, '?as_of=2026-03-31&currency=USD');
    expect(res.status).toBe(200);
    // Invoices in EUR at their issue dates' rates: 700.00 at 0.80, 500.00 and 250.00 at 0.90.
    expect(res.body.totals).toEqual({ ...none, current: 55_556 + 27_778, d31_60: 87_500, over_90: 10_000, total: 180_834 });
  });

  it('answers 422 for a malformed date or currency', async () => {
    for (const [query, path] of [['?as_of=2026-13-01', 'as_of'], ['?currency=eur', 'currency']]) {
      const res = await aged(owner.key, query);
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toContain(path);
    }
  });
});
