// A credit note on an invoice paid online (§16, §17): its post-payment part is refunded through the
// provider, once, with the refund's id as its Idempotency-Key; with no provider connected to refund
// through, nothing is written. (How such a refund settles: test/payments/refund-reservation.test.ts.)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { type FakeStripe, fakeStripe, pressPay, sendEvent, sessionEvent, STRIPE_KEY, STRIPE_WEBHOOK_SECRET } from '../payments/fake-stripe';

let stripe: FakeStripe;
beforeEach(() => {
  stripe = fakeStripe();
});
afterEach(() => vi.restoreAllMocks());

/** An invoice of 1,000.00 paid in full through (the fake) Stripe. */
async function paidOnline() {
  const owner = await createUser('Owner');
  const connected = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'stripe', secret_key: STRIPE_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } });
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  const draft = await createInvoice(owner.key, { client_id: client.id, line_items: [{ description: 'Design', quantity: 4, unit_amount: 25_000 }] });
  const invoice = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } })).body;
  expect((await pressPay(invoice.hosted_url)).status).toBe(303);
  await sendEvent(connected.body.webhook_url, sessionEvent('checkout.session.completed', stripe.sessions.at(-1)!));
  const [payment] = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: owner.key })).body.data;
  expect(payment.source).toBe('online');
  return { owner, invoice, payment };
}

const creditOne = (key: string, invoice: any, headers: Record<string, string> = {}) =>
  call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key, headers, body: { reason: 'product_unsatisfactory', email: false, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 1 }] } });

describe('a credit note on an invoice paid online', () => {
  it('refunds its post-payment part through Stripe as one refund, and a retry with the same Idempotency-Key does not credit or refund again', async () => {
    const { owner, invoice, payment } = await paidOnline();
    const before = stripe.requests.length;
    const res = await creditOne(owner.key, invoice, { 'Idempotency-Key': 'credit-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ total: 25_000, pre_payment_amount: 0, post_payment_amount: 25_000 });
    const refunds = stripe.requests.slice(before).filter((r) => r.url.endsWith('/v1/refunds'));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.form).toMatchObject({ payment_intent: payment.provider_payment_id, amount: '25000' });
    expect((await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: owner.key })).body.data[0].amount_refunded).toBe(25_000);
    expect(await (await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body).toMatchObject({ status: 'paid', amount_paid: 75_000, credited_amount: 25_000, amount_due: 0 });

    const again = await creditOne(owner.key, invoice, { 'Idempotency-Key': 'credit-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(res.body);
    expect(stripe.requests.slice(before).filter((r) => r.url.endsWith('/v1/refunds'))).toHaveLength(1);
    expect((await call('GET', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key })).body.data).toHaveLength(1);
  });

  it('is refused before anything is written when the payment\'s provider is no longer connected', async () => {
    const { owner, invoice } = await paidOnline();
    expect((await call('DELETE', '/api/workspace/payment-provider', { key: owner.key })).status).toBe(204);
    expectError(await creditOne(owner.key, invoice), 409, 'invalid_state');
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body).toMatchObject({ status: 'paid', amount_paid: 100_000, credited_amount: 0, credit_note_ids: [] });
    expect((await call('GET', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/events?type=credit_note.issued', { key: owner.key })).body.data).toEqual([]);
    expect(stripe.requests.filter((r) => r.url.endsWith('/v1/refunds'))).toEqual([]);
  });
});
