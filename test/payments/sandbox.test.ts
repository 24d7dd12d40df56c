// The sandbox provider (§16): a checkout the worker serves itself, whose buttons send the
// workspace's own webhook URL signed Stripe-shaped events, so the whole path after the checkout
// is the one Stripe takes. Only where PAYMENTS_SANDBOX is "true".
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { deliver } from '../helpers/worker';
import { type FakeStripe, fakeStripe, pressPay, raw } from './fake-stripe';

let stripe: FakeStripe;
beforeEach(() => {
  stripe = fakeStripe();
});
afterEach(() => vi.restoreAllMocks());

async function sandboxInvoice() {
  const owner = await createUser('Owner');
  const put = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'sandbox' } });
  expect(put.body).toMatchObject({ provider: 'sandbox', connected: true, key_last4: null, test_mode: true });
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  const draft = await createInvoice(owner.key, { client_id: client.id });
  const invoice = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } })).body;
  return { owner, invoice };
}

/** Presses Pay on the hosted page and opens the sandbox's checkout it leads to. */
async function checkout(hostedUrl: string) {
  const press = await pressPay(hostedUrl);
  expect(press.status).toBe(303);
  const url = press.headers.get('Location')!;
  expect(url).toMatch(/^https:\/\/workspace\.test\/sandbox\/checkout\/pat_[0-9A-Z]{26}$/);
  return url;
}

const choose = (url: string, outcome: string) =>
  raw(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ outcome }).toString() });

describe('the sandbox checkout', () => {
  it('Pay: the page says TEST MODE, the invoice is paid, and the payer gets a receipt that says TEST MODE', async () => {
    const { owner, invoice } = await sandboxInvoice();
    const hosted = await raw(invoice.hosted_url);
    expect(hosted.headers.get('Content-Security-Policy')).toContain("form-action 'self';");
    const url = await checkout(invoice.hosted_url);
    const page = await raw(url);
    const html = await page.text();
    expect(html).toContain('TEST MODE');
    expect(html).toContain('Pay $1,000.00');
    expect(html).toContain('Pay by bank');
    expect(html).toContain('Fail');
    const back = await choose(url, 'pay');
    expect(back.status).toBe(303);
    expect(back.headers.get('Location')).toBe(`${invoice.hosted_url}?payment=success`);
    const after = (await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body;
    expect(after).toMatchObject({ status: 'paid', amount_paid: 100_000 });
    const landed = await (await raw(`${invoice.hosted_url}?payment=success`)).text();
    expect(landed).toContain('PAID');
    // Recorded: the page says the invoice is paid, not that the payment is still on its way (§20).
    expect(landed).toContain('Thank you: this invoice is paid.');
    expect(landed).not.toContain('as soon as the payment service confirms it');
    const [payment] = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: owner.key })).body.data;
    expect(payment).toMatchObject({ source: 'online', provider: 'sandbox', provider_payment_id: expect.stringMatching(/^pi_sandbox_/) });
    const [receipt] = (await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data;
    expect(receipt).toMatchObject({ kind: 'receipt', to: ['ap@initech.example'], status: 'queued' });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await deliver('workspace-emails', [{ id: 'receipt', body: { delivery_id: receipt.id } }]);
    expect(JSON.stringify(log.mock.calls)).toContain('[TEST MODE] Receipt');
    expect((await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data[0].status).toBe('sent');
    // The finished checkout offers nothing more.
    expect(await (await raw(url)).text()).toContain('This checkout is succeeded');
    expect(stripe.requests).toEqual([]);
  });

  it('Pay by bank: pending, then it succeeds', async () => {
    const { owner, invoice } = await sandboxInvoice();
    const back = await choose(await checkout(invoice.hosted_url), 'bank');
    expect(back.status).toBe(303);
    const after = (await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body;
    expect(after).toMatchObject({ status: 'paid', amount_paid: 100_000 });
    const [payment] = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: owner.key })).body.data;
    expect(payment.method).toBe('bank_transfer');
  });

  it('Fail: the attempt fails, the invoice stays open, and the page says so', async () => {
    const { owner, invoice } = await sandboxInvoice();
    const back = await choose(await checkout(invoice.hosted_url), 'fail');
    expect(back.headers.get('Location')).toBe(`${invoice.hosted_url}?payment=failed`);
    expect(await (await raw(back.headers.get('Location')!)).text()).toContain('did not go through');
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body).toMatchObject({ status: 'open', amount_paid: 0 });
    const [attempt] = (await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data;
    expect(attempt.status).toBe('failed');
  });

  it('the pay button is under the hosted page\'s per-address limit', async () => {
    const { invoice } = await sandboxInvoice();
    const address = { 'CF-Connecting-IP': '2001:db8:77::1' };
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await raw(`${invoice.hosted_url}/pay`, { method: 'POST', headers: address })).status);
    expect(statuses.slice(0, 60).every((s) => s === 303)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('does not exist where PAYMENTS_SANDBOX is not "true" (production)', async () => {
    const { owner, invoice } = await sandboxInvoice();
    const url = await checkout(invoice.hosted_url);
    const production = { ...env, PAYMENTS_SANDBOX: 'false' } as Env;
    const put = await raw('https://workspace.test/api/workspace/payment-provider', {
      method: 'PUT', headers: { Authorization: `Bearer ${owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ provider: 'sandbox' }),
    }, production);
    expect(put.status).toBe(422);
    expect(((await put.json()) as any).error.details[0].path).toBe('provider');
    expect((await raw(url, {}, production)).status).toBe(404);
    expect(await (await raw(invoice.hosted_url, {}, production)).text()).not.toContain('online</button>');
    expectError(await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'paypal' } }), 422, 'validation_failed');
  });
});
