// Money out is reserved before it is asked for (§16, §17): a refund through Stripe, by a refund or
// by a credit note, is written `pending` against the payment's unrefunded rest before Stripe is
// called. With a Stripe that answers slowly, requests at once overlap at the provider: never is
// more asked of it than the rest, and every refund it made has its row.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { askAgainUnansweredRefunds, ASK_AGAIN_AFTER_MS } from '../../src/modules/payments/refund-sweep';
import { type FakeStripe, fakeStripe, pressPay, refundCalls, refundEvent, sendEvent, sessionEvent, STRIPE_KEY, STRIPE_WEBHOOK_SECRET } from './fake-stripe';

let stripe: FakeStripe;
beforeEach(() => {
  stripe = fakeStripe();
});
afterEach(() => vi.restoreAllMocks());

const getInvoice = async (key: string, id: string) => (await call('GET', `/v1/invoices/${id}`, { key })).body;
const paymentsOf = async (key: string, id: string) => (await call('GET', `/v1/invoices/${id}/payments`, { key })).body.data;
const eventsOf = async (key: string, type: string) => (await call('GET', `/api/events?type=${type}`, { key })).body.data;

/** An invoice of four lines of 250.00, sent, with what `paid` says of it: paid online in full, or not yet. */
async function invoiceOf(paid: 'online' | 'unpaid') {
  const owner = await createUser('Owner');
  const connected = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'stripe', secret_key: STRIPE_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } });
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  const draft = await createInvoice(owner.key, { client_id: client.id, line_items: [{ description: 'Design', quantity: 4, unit_amount: 25_000 }] });
  const invoice = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } })).body;
  const webhookUrl: string = connected.body.webhook_url;
  if (paid === 'unpaid') return { owner, invoice, webhookUrl, payment: undefined };
  expect((await pressPay(invoice.hosted_url)).status).toBe(303);
  await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', stripe.sessions.at(-1)!));
  const [payment] = await paymentsOf(owner.key, invoice.id);
  expect(payment).toMatchObject({ source: 'online', amount: 100_000 });
  return { owner, invoice, webhookUrl, payment };
}

/** Every refund Stripe made has a row, with the amount Stripe was asked for. */
async function expectEveryStripeRefundRecorded(key: string, invoiceId: string) {
  const rows = (await call('GET', `/api/events?type=invoice.payment_refunded`, { key })).body.data.map((e: any) => e.data.refund);
  for (const made of stripe.refunds.values()) {
    expect(rows.find((r: any) => r.id === made.metadata.refund_id), `Stripe refund ${made.id} has no row`).toMatchObject({ amount: made.amount });
  }
  const refunded = (await paymentsOf(key, invoiceId)).reduce((sum: number, p: any) => sum + p.amount_refunded, 0);
  expect(refunded).toBe([...stripe.refunds.values()].reduce((sum, r) => sum + r.amount, 0));
}

describe('refunds at once on one payment, with a slow Stripe', () => {
  it('two credit notes that each need most of the payment back: one is issued and refunded, the other is a 422, and Stripe is asked once', async () => {
    const { owner, invoice } = await invoiceOf('online');
    stripe.refundDelayMs = 300;
    const three = { reason: 'order_change', email: false, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 3 }] };
    const answers = await Promise.all([1, 2].map(() => call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key, body: three })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect(refundCalls(stripe)).toHaveLength(1);
    expect(refundCalls(stripe)[0]!.form.amount).toBe('75000');
    await expectEveryStripeRefundRecorded(owner.key, invoice.id);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid', credited_amount: 75_000, amount_paid: 25_000, amount_due: 0 });
  });

  it('two credit notes that both fit are both refunded, each its own refund at Stripe', async () => {
    const { owner, invoice } = await invoiceOf('online');
    stripe.refundDelayMs = 200;
    const one = { reason: 'order_change', email: false, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 1 }] };
    const answers = await Promise.all([1, 2].map(() => call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key, body: one })));
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    expect(new Set(refundCalls(stripe).map((r) => r.headers['idempotency-key'])).size).toBe(2);
    await expectEveryStripeRefundRecorded(owner.key, invoice.id);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ credited_amount: 50_000, amount_paid: 50_000 });
  });

  it('two refunds of 700.00 on a payment of 1,000.00: one is made, the other is a 422 that never reaches Stripe', async () => {
    const { owner, invoice, payment } = await invoiceOf('online');
    stripe.refundDelayMs = 300;
    const path = `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`;
    const answers = await Promise.all([1, 2].map(() => call('POST', path, { key: owner.key, body: { amount: 70_000 } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expectError(answers.find((a) => a.status === 422)!, 422, 'validation_failed');
    expect(refundCalls(stripe)).toHaveLength(1);
    await expectEveryStripeRefundRecorded(owner.key, invoice.id);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 30_000, amount_due: 70_000 });
  });

  it('a refund racing a payment: both are recorded, and the invoice adds them up', async () => {
    const { owner, invoice, webhookUrl } = await invoiceOf('unpaid');
    await call('POST', `/v1/invoices/${invoice.id}/payments`, { key: owner.key, body: { amount: 30_000 } });
    const [manual] = await paymentsOf(owner.key, invoice.id);
    expect((await pressPay(invoice.hosted_url)).status).toBe(303);
    const session = stripe.sessions.at(-1)!;
    expect(session.amount_total).toBe(70_000);
    const [refund, paid] = await Promise.all([
      call('POST', `/v1/invoices/${invoice.id}/payments/${manual.id}/refunds`, { key: owner.key, body: {} }),
      sendEvent(webhookUrl, sessionEvent('checkout.session.completed', session)),
    ]);
    expect(refund.status).toBe(201);
    expect(paid.status).toBe(200);
    expect(await paymentsOf(owner.key, invoice.id)).toHaveLength(2);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 70_000, amount_due: 30_000 });
  });
});

describe('how a refund through Stripe settles', () => {
  it('a refund Stripe refuses is failed and its amount given back, with invoice.updated; the rest can be refunded again', async () => {
    const { owner, invoice, payment } = await invoiceOf('online');
    const path = `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`;
    stripe.mode = 'refuse';
    const refused = await call('POST', path, { key: owner.key, body: { amount: 40_000 } });
    expect(refused.status).toBe(201);
    expect(refused.body).toMatchObject({ status: 'failed', amount: 40_000 });
    expect(JSON.stringify(refused.body)).not.toContain(STRIPE_KEY);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid', amount_paid: 100_000 });
    expect((await paymentsOf(owner.key, invoice.id))[0].amount_refunded).toBe(0);
    const [updated] = await eventsOf(owner.key, 'invoice.updated');
    expect(updated.data).toMatchObject({ refund: { id: refused.body.id, status: 'failed' }, previous_attributes: { amount_paid: 60_000, status: 'open' } });

    stripe.mode = 'ok';
    const again = await call('POST', path, { key: owner.key, body: {} });
    expect(again.body).toMatchObject({ status: 'succeeded', amount: 100_000 });
  });

  it('a credit note whose refund Stripe refuses is issued; the money to give back stays on the invoice as overpaid', async () => {
    const { owner, invoice } = await invoiceOf('online');
    stripe.mode = 'refuse';
    const note = await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key, body: { reason: 'other', email: false, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 1 }] } });
    expect(note.status).toBe(201);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ credited_amount: 25_000, amount_paid: 75_000, overpaid_amount: 25_000 });
    expect((await paymentsOf(owner.key, invoice.id))[0].amount_refunded).toBe(0);
  });

  it('a refund Stripe never answered stays pending, holding its amount, and the cron asks again with the same key: one refund', async () => {
    const { owner, invoice, payment } = await invoiceOf('online');
    const path = `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`;
    stripe.mode = 'down';
    const pending = await call('POST', path, { key: owner.key, headers: { 'Idempotency-Key': 'refund-once' }, body: { amount: 40_000 } });
    expect(pending.status).toBe(201);
    expect(pending.body).toMatchObject({ status: 'pending', provider_refund_id: null });
    // Held: the rest is 60,000 until Stripe says otherwise.
    expectError(await call('POST', path, { key: owner.key, body: { amount: 60_001 } }), 422, 'validation_failed');
    // The same request again is answered as before; it does not ask Stripe a second time.
    const replay = await call('POST', path, { key: owner.key, headers: { 'Idempotency-Key': 'refund-once' }, body: { amount: 40_000 } });
    expect(replay.body).toEqual(pending.body);
    expect(refundCalls(stripe)).toHaveLength(1);

    stripe.mode = 'ok';
    expect(await askAgainUnansweredRefunds(env, Date.now())).toBe(0); // not yet: the request may still be answering
    expect(await askAgainUnansweredRefunds(env, Date.now() + ASK_AGAIN_AFTER_MS + 1_000)).toBe(1);
    const keys = refundCalls(stripe).map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([pending.body.id, pending.body.id]);
    expect(stripe.refunds.size).toBe(1);
    expect((await paymentsOf(owner.key, invoice.id))[0].amount_refunded).toBe(40_000);
    expect(await askAgainUnansweredRefunds(env, Date.now() + ASK_AGAIN_AFTER_MS + 1_000)).toBe(0);
  });

  it('a refund Stripe answers pending settles from its webhook, once; a failed one gives its amount back', async () => {
    const { owner, invoice, payment, webhookUrl } = await invoiceOf('online');
    const path = `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`;
    stripe.refundStatus = 'pending';
    const first = await call('POST', path, { key: owner.key, body: { amount: 10_000 } });
    const second = await call('POST', path, { key: owner.key, body: { amount: 20_000 } });
    expect([first.body.status, second.body.status]).toEqual(['pending', 'pending']);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ amount_paid: 70_000 });
    const [made1, made2] = [...stripe.refunds.values()];

    const succeeded = refundEvent('charge.refund.updated', made1!, 'succeeded');
    expect((await sendEvent(webhookUrl, succeeded)).status).toBe(200);
    expect((await sendEvent(webhookUrl, succeeded)).status).toBe(200);
    expect((await sendEvent(webhookUrl, refundEvent('refund.failed', made2!, 'failed'))).status).toBe(200);
    expect((await sendEvent(webhookUrl, refundEvent('refund.updated', made2!, 'succeeded'))).status).toBe(200); // late: already settled

    const payments = await paymentsOf(owner.key, invoice.id);
    expect(payments[0].amount_refunded).toBe(10_000);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 90_000 });
    // Another workspace's provider cannot settle this workspace's refunds.
    const stranger = await invoiceOf('online');
    expect((await sendEvent(stranger.webhookUrl, refundEvent('refund.updated', { ...made1!, id: 're_other' }, 'failed'))).status).toBe(200);
    expect((await paymentsOf(owner.key, invoice.id))[0].amount_refunded).toBe(10_000);
  });

  it('a credit note\'s refund writes invoice.payment_refunded with the refund', async () => {
    const { owner, invoice } = await invoiceOf('online');
    const note = await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key, body: { reason: 'other', email: false, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 1 }] } });
    expect(note.status).toBe(201);
    const [refunded] = await eventsOf(owner.key, 'invoice.payment_refunded');
    expect(refunded.data.refund).toMatchObject({ id: note.body.refund_id, amount: 25_000, reason: `Credit note ${note.body.number}` });
    expect(refunded.data.object).toMatchObject({ id: invoice.id, amount_paid: 75_000 });
  });
});
