// §22: output tax by category and rate (invoices less credit notes), input tax from expenses with a
// tax breakdown, what is payable, and the EU sales list, in the workspace's currency.
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../../src/lib/time';
import { call, errorPaths, expectError } from '../helpers/api';
import { receivedExpense, sentInvoice } from '../helpers/books';
import { addMember, createClient, createUser, type TestUser } from '../helpers/factories';
import { keepDayRates, putRates } from '../helpers/rates';

// Credit notes are dated the day they are made, so the period ends today.
const today = todayUtc();
const day = (n: number) => addDays(today, n);
const PERIOD = `from=${day(-60)}&to=${today}`;
let owner: TestUser;

beforeAll(async () => {
  await putRates({ EUR: 0.85 });
  await keepDayRates(day(-60), { EUR: 0.9 });
  owner = await createUser();
  const issuer = { legal_name: 'Studio GmbH', vat_id: 'DE123456789', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' } };
  expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { default_currency: 'EUR', issuer } })).status).toBe(200);
  const home = await createClient(owner.key, { name: 'Heim AG', currency: 'EUR', address: { country: 'DE' } });
  const french = await createClient(owner.key, { name: 'Dubois SARL', currency: 'EUR', vat_id: 'FR40303265045', address: { country: 'FR' } });
  const austrian = await createClient(owner.key, { name: 'Wien GmbH', currency: 'EUR', vat_id: 'ATU13585627', address: { country: 'AT' } });
  const american = await createClient(owner.key, { name: 'Initrode Inc.', currency: 'USD', address: { country: 'US' } });

  await sentInvoice(owner.key, {
    client_id: home.id, issue_date: day(-50),
    line_items: [{ description: 'Design', quantity: 1, unit_amount: 100_000, tax_rate: 19 }, { description: 'Books', quantity: 1, unit_amount: 20_000, tax_rate: 7 }],
  });
  const reverseCharge = await sentInvoice(owner.key, { client_id: french.id, issue_date: day(-40), line_items: [{ description: 'Consulting', quantity: 2, unit_amount: 150_000, tax_category: 'AE' }] });
  await sentInvoice(owner.key, { client_id: austrian.id, issue_date: day(-30), line_items: [{ description: 'Prints', quantity: 1, unit_amount: 150_000, tax_category: 'K' }] });
  // 900.00 USD exported: 810.00 EUR at the period's rate.
  await sentInvoice(owner.key, { client_id: american.id, issue_date: day(-20), line_items: [{ description: 'Posters', quantity: 1, unit_amount: 90_000, tax_category: 'G' }] });
  // Half the reverse-charge invoice credited today.
  const line = reverseCharge.line_items[0].id;
  expect((await call('POST', `/v1/invoices/${reverseCharge.id}/credit-notes`, { key: owner.key, body: { reason: 'order_change', email: false, lines: [{ line_item_id: line, quantity: 1 }] } })).status).toBe(201);
  // An invoice issued before the period is not in it.
  await sentInvoice(owner.key, { client_id: home.id, issue_date: day(-61), line_items: [{ description: 'Earlier', quantity: 1, unit_amount: 55_500, tax_rate: 19 }] });

  await receivedExpense(owner.key, { amount: 11_900, currency: 'EUR', incurred_on: day(-10) }, [{ category: 'S', rate: 19, taxable_amount: 10_000, tax_amount: 1_900 }]);
  await receivedExpense(owner.key, { amount: 10_700, currency: 'USD', incurred_on: day(-5) }, [{ category: 'S', rate: 7, taxable_amount: 10_000, tax_amount: 700 }]);
  // Typed in by hand: no input tax.
  expect((await call('POST', '/api/workflow/expenses', { key: owner.key, body: { category: 'office', amount: 5_000, currency: 'EUR', incurred_on: day(-3) } })).status).toBe(201);
});

describe('the VAT report', () => {
  it('adds up output and input tax by category and rate, and lists EU sales per buyer', async () => {
    const res = await call('GET', `/v1/reports/vat?${PERIOD}`, { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'EUR',
      period: { from: day(-60), to: today },
      output: [
        { category: 'S', rate: 19, taxable_amount: 100_000, tax_amount: 19_000 },
        { category: 'S', rate: 7, taxable_amount: 20_000, tax_amount: 1_400 },
        { category: 'AE', rate: 0, taxable_amount: 300_000 - 150_000, tax_amount: 0 },
        { category: 'K', rate: 0, taxable_amount: 150_000, tax_amount: 0 },
        { category: 'G', rate: 0, taxable_amount: 81_000, tax_amount: 0 },
      ],
      output_tax: 20_400,
      input: [
        { category: 'S', rate: 19, taxable_amount: 10_000, tax_amount: 1_900 },
        { category: 'S', rate: 7, taxable_amount: 9_000, tax_amount: 630 },
      ],
      input_tax: 2_530,
      net_payable: 17_870,
      eu_sales_list: [
        { vat_id: 'ATU13585627', country: 'AT', services: 0, goods: 150_000 },
        { vat_id: 'FR40303265045', country: 'FR', services: 150_000, goods: 0 },
      ],
      rates_missing: [],
    });
  });

  it('agrees with the accrual profit and loss: the taxable amounts are its income', async () => {
    const pnl = await call('GET', `/v1/reports/profit-and-loss?${PERIOD}`, { key: owner.key });
    expect(pnl.body.totals.income).toBe(100_000 + 20_000 + 150_000 + 150_000 + 81_000);
  });

  it('is read by a viewer; a bad period is a 422', async () => {
    const viewer = await addMember(owner.key, 'viewer');
    expect((await call('GET', `/v1/reports/vat?${PERIOD}`, { key: viewer.key })).body.output_tax).toBe(20_400);
    const res = await call('GET', `/v1/reports/vat?from=${today}&to=${day(-1)}`, { key: viewer.key });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['to']);
  });
});
