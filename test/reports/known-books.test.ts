// §22: a small set of books, every figure known in advance and asserted to the cent. A workspace in
// EUR bills in EUR and USD at several tax categories and rates; the dollar's rate changes between an
// invoice and its payment; a payment is partly refunded, an invoice partly credited, an invoice
// voided; expenses carry input tax (as received documents leave them, §21). Every report, and the
// rows the accountant's files are made of, must agree, and a report of a past day or period must not
// see what happened after it. Credit notes and refunds are dated the day they are made, so the books
// run up to today (T) and every date is counted from it.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/lib/context';
import { addDays, todayUtc } from '../../src/lib/time';
import { bookRows } from '../../src/modules/reports/rows';
import { call } from '../helpers/api';
import { pay, receivedExpense, sentInvoice } from '../helpers/books';
import { createClient, createUser, type TestUser } from '../helpers/factories';
import { keepDayRates, putRates } from '../helpers/rates';

const T = todayUtc();
const day = (n: number) => addDays(T, n);
const PERIOD = { from: day(-59), to: T };
const inPeriod = `from=${PERIOD.from}&to=${PERIOD.to}`;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

let owner: TestUser;
let workspaceId: string;
const ids: Record<string, string> = {};
const clients: Record<string, string> = {};

beforeAll(async () => {
  await putRates({ EUR: 0.93 });
  // EUR per USD: 0.9213 from the period's first day, 0.9345 from T−20.
  await keepDayRates(day(-59), { EUR: 0.9213 });
  await keepDayRates(day(-20), { EUR: 0.9345 });
  owner = await createUser();
  workspaceId = (await call('GET', '/api/me', { key: owner.key })).body.workspace.id;
  const issuer = { legal_name: 'Studio GmbH', vat_id: 'DE123456789', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' } };
  expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { default_currency: 'EUR', issuer } })).status).toBe(200);
  clients.heim = (await createClient(owner.key, { name: 'Heim AG', currency: 'EUR', address: { country: 'DE' } })).id;
  clients.dubois = (await createClient(owner.key, { name: 'Dubois SARL', currency: 'EUR', vat_id: 'FR40303265045', address: { country: 'FR' } })).id;
  clients.initrode = (await createClient(owner.key, { name: 'Initrode Inc.', currency: 'USD', address: { country: 'US' } })).id;
  const k = owner.key;

  // I1, EUR: 1,234.56 at 19 % (tax 234.57) and 99.99 at 7 % (tax 7.00): total 1,576.12. 500.00 paid
  // at T−40 (its tax share 500.00 × 241.57 / 1,576.12 = 76.63); the 7 % line credited today.
  const i1 = await sentInvoice(k, {
    client_id: clients.heim, issue_date: day(-50),
    line_items: [{ description: 'Design', quantity: 1, unit_amount: 123_456, tax_rate: 19 }, { description: 'Books', quantity: 1, unit_amount: 9_999, tax_rate: 7 }],
  });
  expect([i1.subtotal, i1.tax, i1.total]).toEqual([133_455, 24_157, 157_612]);
  ids.i1 = i1.id;
  await pay(k, i1.id, 50_000, day(-40));
  const credited = await call('POST', `/v1/invoices/${i1.id}/credit-notes`, { key: k, body: { reason: 'order_change', email: false, lines: [{ line_item_id: i1.line_items[1].id, quantity: 1 }] } });
  expect(credited.status).toBe(201);
  expect([credited.body.total, credited.body.pre_payment_amount, credited.body.issue_date]).toEqual([10_699, 10_699, T]);

  // I2, USD, an export (G): 2,000.00 issued at T−45 (1,842.60 EUR), paid at T−10 when it was worth
  // 1,869.00 EUR; 300.00 of it refunded today.
  const i2 = await sentInvoice(k, { client_id: clients.initrode, issue_date: day(-45), line_items: [{ description: 'Posters', quantity: 1, unit_amount: 200_000, tax_category: 'G' }] });
  ids.i2 = i2.id;
  const p2 = await pay(k, i2.id, 200_000, day(-10));
  expect((await call('POST', `/v1/invoices/${i2.id}/payments/${p2}/refunds`, { key: k, body: { amount: 30_000 } })).status).toBe(201);

  // I3, EUR, reverse charge to a French business: 3 × 333.33, paid at T−25.
  const i3 = await sentInvoice(k, { client_id: clients.dubois, issue_date: day(-30), line_items: [{ description: 'Consulting', quantity: 3, unit_amount: 33_333, tax_category: 'AE' }] });
  ids.i3 = i3.id;
  await pay(k, i3.id, 99_999, day(-25));

  // I4, USD at 19 % after the rate changed: 100.00 + 19.00 is 93.45 + 17.76 EUR (17.7555). Open.
  ids.i4 = (await sentInvoice(k, { client_id: clients.heim, currency: 'USD', issue_date: day(-15), line_items: [{ description: 'Licence', quantity: 1, unit_amount: 10_000, tax_rate: 19 }] })).id;

  // I5, EUR 50.00, voided today: never income, but owed until today.
  const i5 = await sentInvoice(k, { client_id: clients.heim, issue_date: day(-35), line_items: [{ description: 'Mistake', quantity: 1, unit_amount: 5_000 }] });
  expect((await call('POST', `/v1/invoices/${i5.id}/void`, { key: k })).status).toBe(200);
  // A draft is nothing yet.
  expect((await call('POST', '/v1/invoices', { key: k, body: { client_id: clients.heim, issue_date: day(-30), line_items: [{ description: 'Draft', quantity: 1, unit_amount: 77_700 }] } })).status).toBe(201);

  // E1 typed in by hand (no input tax), E2 and E3 received with their VAT: 93.45 EUR net and 6.54 EUR (6.5415) tax for E3.
  expect((await call('POST', '/api/workflow/expenses', { key: k, body: { category: 'travel', amount: 11_900, currency: 'EUR', incurred_on: day(-48) } })).status).toBe(201);
  await receivedExpense(k, { amount: 23_800, currency: 'EUR', incurred_on: day(-20) }, [{ category: 'S', rate: 19, taxable_amount: 20_000, tax_amount: 3_800 }]);
  await receivedExpense(k, { amount: 10_700, currency: 'USD', incurred_on: day(-5) }, [{ category: 'S', rate: 7, taxable_amount: 10_000, tax_amount: 700 }]);
}, 120_000); // a whole set of books through the worker: room beyond the 30 s of a hook on a busy machine

const get = async (path: string) => {
  const res = await call('GET', path, { key: owner.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('known books', () => {
  it('profit and loss, accrual: invoices at their issue dates\' rates, less the credit note; the dollar payment\'s gain', async () => {
    const report = await get(`/v1/reports/profit-and-loss?${inPeriod}`);
    // 1,334.55 + 1,842.60 + 999.99 + 93.45 − 99.99; 119.00 + 200.00 + 93.45; 1,869.00 − 1,842.60.
    expect(report.totals).toEqual({ income: 417_060, expenses: 41_245, fx_gain_loss: 2_640, profit: 378_455 });
    expect(report.rates_missing).toEqual([]);
    for (const field of ['income', 'expenses', 'fx_gain_loss', 'profit'] as const) {
      expect(sum(report.rows.map((row: Record<string, number>) => row[field])), field).toBe(report.totals[field]);
    }
    expect((await get(`/v1/reports/profit-and-loss?${inPeriod}&group_by=project`)).totals).toEqual(report.totals);
  });

  it('profit and loss, cash: the net share of what came in, less the refund at its own date\'s rate', async () => {
    const report = await get(`/v1/reports/profit-and-loss?${inPeriod}&basis=cash`);
    // 500.00 − 76.63 + 1,869.00 + 999.99 − 280.35.
    expect(report.totals).toEqual({ income: 301_201, expenses: 41_245, fx_gain_loss: 2_640, profit: 259_956 });
  });

  it('profit and loss in USD: each euro record at its own date\'s rate', async () => {
    const report = await get(`/v1/reports/profit-and-loss?${inPeriod}&currency=USD`);
    // 1,334.55 / 0.9213 + 2,000.00 + 999.99 / 0.9213 + 100.00 − 99.99 / 0.9345; 119.00 / 0.9213 + 200.00 / 0.9345 + 100.00.
    // The euro payments were made at the rate of their invoices' days: no difference in USD.
    expect(report.totals).toEqual({ income: 144_855 + 200_000 + 108_541 + 10_000 - 10_700, expenses: 12_917 + 21_402 + 10_000, fx_gain_loss: 0, profit: 408_377 });
  });

  it('VAT: output by category and rate less the credit note, input from the received expenses, and the EU sales list', async () => {
    expect(await get(`/v1/reports/vat?${inPeriod}`)).toEqual({
      currency: 'EUR',
      period: PERIOD,
      output: [
        { category: 'S', rate: 19, taxable_amount: 123_456 + 9_345, tax_amount: 23_457 + 1_776 },
        { category: 'S', rate: 7, taxable_amount: 0, tax_amount: 0 },
        { category: 'AE', rate: 0, taxable_amount: 99_999, tax_amount: 0 },
        { category: 'G', rate: 0, taxable_amount: 184_260, tax_amount: 0 },
      ],
      output_tax: 25_233,
      input: [
        { category: 'S', rate: 19, taxable_amount: 20_000, tax_amount: 3_800 },
        { category: 'S', rate: 7, taxable_amount: 9_345, tax_amount: 654 },
      ],
      input_tax: 4_454,
      net_payable: 20_779,
      eu_sales_list: [{ vat_id: 'FR40303265045', country: 'FR', services: 99_999, goods: 0 }],
      rates_missing: [],
    });
  });

  it('the dollar payment\'s realized difference', async () => {
    const payments = await get(`/v1/invoices/${ids.i2}/payments`);
    expect(payments.data.map((p: { fx: unknown; amount_refunded: number }) => [p.fx, p.amount_refunded])).toEqual([[{ rate_at_issue: 0.9213, rate_at_payment: 0.9345, difference: 2_640 }, 30_000]]);
  });

  it('aged receivables today: what is still owed, each invoice at its issue date\'s rate', async () => {
    const none = { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, over_90: 0 };
    expect(await get('/v1/reports/aged-receivables')).toEqual({
      currency: 'EUR',
      as_of: T,
      rows: [
        // I1: 1,576.12 − 500.00 − 106.99, 20 days late; I4: 119.00 USD, not yet due.
        { client_id: clients.heim, name: 'Heim AG', ...none, current: 11_121, d1_30: 96_913, total: 108_034 },
        // I2: the 300.00 USD refunded is owed again, at 0.9213, 15 days late.
        { client_id: clients.initrode, name: 'Initrode Inc.', ...none, d1_30: 27_639, total: 27_639 },
      ],
      totals: { ...none, current: 11_121, d1_30: 124_552, total: 135_673 },
      rates_missing: [],
    });
  });

  it('aged receivables of a past day: the payment, refund, credit note and void made later are not seen', async () => {
    const none = { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, over_90: 0 };
    const report = await get(`/v1/reports/aged-receivables?as_of=${day(-12)}`);
    expect(report.rows).toEqual([
      // I1 less only the payment (8 days late); I4 and the not yet voided I5, not due.
      { client_id: clients.heim, name: 'Heim AG', ...none, current: 11_121 + 5_000, d1_30: 107_612, total: 123_733 },
      // I2 unpaid: 2,000.00 USD at 0.9213, 3 days late.
      { client_id: clients.initrode, name: 'Initrode Inc.', ...none, d1_30: 184_260, total: 184_260 },
    ]);
  });

  it('profit and loss of a past period: what came after its end is not in it', async () => {
    const report = await get(`/v1/reports/profit-and-loss?from=${PERIOD.from}&to=${day(-11)}`);
    // No credit note, no dollar payment (T−10), no E3 (T−5).
    expect(report.totals).toEqual({ income: 133_455 + 184_260 + 99_999 + 9_345, expenses: 11_900 + 20_000, fx_gain_loss: 0, profit: 427_059 - 31_900 });
  });

  it('the rows for the accountant\'s files add up to every report', async () => {
    const rows = await bookRows(systemContext(env, workspaceId, 'test'), PERIOD);
    expect(rows.currency).toBe('EUR');
    expect(rows.invoices.map((r) => r.id).sort()).toEqual([ids.i1, ids.i2, ids.i3, ids.i4].sort());
    const converted = <T extends { converted: Record<string, number | null> }>(list: T[], field: string) => sum(list.map((r) => r.converted[field] ?? 0));
    expect(converted(rows.invoices, 'net') - converted(rows.credit_notes, 'net')).toBe(417_060);
    expect(converted(rows.invoices, 'tax') - converted(rows.credit_notes, 'tax')).toBe(25_233);
    expect(converted(rows.payments, 'net') - converted(rows.refunds, 'net')).toBe(301_201);
    expect(sum(rows.payments.map((p) => p.fx_gain_loss))).toBe(2_640);
    expect(converted(rows.expenses, 'net')).toBe(41_245);
    expect(converted(rows.expenses, 'input_tax')).toBe(4_454);
    // Each row keeps its own amounts too: the dollar invoice in dollars.
    expect(rows.invoices.find((r) => r.id === ids.i2)).toMatchObject({ currency: 'USD', net: 200_000, tax: 0, total: 200_000, converted: { net: 184_260, tax: 0, total: 184_260 } });
    expect(rows.expenses.find((e) => e.currency === 'USD')).toMatchObject({ amount: 10_700, net: 10_000, input_tax: 700, converted: { amount: 9_999, net: 9_345, input_tax: 654 } });
  });
});
