// §1, §7: every sum the API reports is exact. A document's total is capped at 10^13 minor units
// like any amount; sums of many are added exactly (SQL sums read as text, BigInt in JS), and one
// that a JSON number could not carry exactly (past 2^53 − 1) is a 422, never a figure a unit off.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createInvoice, createSentInvoice, createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const TWO_52 = 2 ** 52;

// Rates in the cache, so no dashboard reaches for the upstream.
beforeAll(() => putRates({ EUR: 0.5 }));

/** An open invoice whose total and amount due are `total`, as data from before the cap could hold. */
async function openInvoiceOf(key: string, clientId: string, total: number) {
  const invoice = await createSentInvoice(key, { client_id: clientId });
  await env.DB.prepare('UPDATE invoices SET subtotal = ?1, total = ?1, tax = 0 WHERE id = ?2').bind(total, invoice.id).run();
  return invoice;
}

describe('a document\'s total', () => {
  it('is at most 10^13 minor units, tax included, on create and edit, for invoices and recurring ones', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const tooMuch = [
      { description: 'Build', quantity: 1, unit_amount: 6_000_000_000_000 },
      { description: 'Run', quantity: 1, unit_amount: 4_000_000_000_000, tax_rate: 0.001 },
    ];
    const refused = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: tooMuch } });
    expectError(refused, 422, 'validation_failed');
    expect(errorPaths(refused)).toEqual(['line_items']);

    const atLimit = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [tooMuch[0], { ...tooMuch[1], tax_rate: 0 }] } });
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.total).toBe(10_000_000_000_000);

    const draft = await createInvoice(user.key, { client_id: client.id });
    const patched = await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { line_items: tooMuch } });
    expectError(patched, 422, 'validation_failed');
    expect(errorPaths(patched)).toEqual(['line_items']);

    const recurring = await call('POST', '/v1/recurring-invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: tooMuch, interval: 'month', start_date: '2199-01-01' },
    });
    expectError(recurring, 422, 'validation_failed');
    expect(errorPaths(recurring)).toEqual(['line_items']);
  });
});

describe('dashboard sums', () => {
  it('are exact up to 2^53 − 1, and a 422 past it rather than a unit off', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    await openInvoiceOf(user.key, client.id, TWO_52);
    await openInvoiceOf(user.key, client.id, TWO_52 - 1);
    const exact = await call('GET', '/api/workflow/dashboard', { key: user.key });
    expect(exact.status).toBe(200);
    expect(exact.body.totals.outstanding).toBe(Number.MAX_SAFE_INTEGER);
    expect(exact.body.by_currency[0].outstanding).toBe(Number.MAX_SAFE_INTEGER);

    // 2^53 + 2 would read as 2^53 + 2 in a double, but 2^53 + 1 cannot: one more unit due.
    await openInvoiceOf(user.key, client.id, 2);
    const past = await call('GET', '/api/workflow/dashboard', { key: user.key });
    expectError(past, 422, 'validation_failed');
    expect(past.body.error.details[0].message).toContain('too large to be exact');
  });

  it('refuse a converted total past 2^53 − 1 on `currency`, while the currency\'s own sum is answered', async () => {
    await putRates({ EUR: 0.5 });
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'EUR' });
    await openInvoiceOf(user.key, client.id, TWO_52 + 1); // €2^52 + 0.01 → $2^53 + 0.02
    const inUsd = await call('GET', '/api/workflow/dashboard', { key: user.key });
    expectError(inUsd, 422, 'validation_failed');
    expect(errorPaths(inUsd)).toEqual(['currency']);
    const inEur = await call('GET', '/api/workflow/dashboard?currency=EUR', { key: user.key });
    expect(inEur.status).toBe(200);
    expect(inEur.body.totals.outstanding).toBe(TWO_52 + 1);
  });
});
