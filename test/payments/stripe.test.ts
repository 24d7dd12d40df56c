// Getting paid through Stripe (§16), against a local fake of Stripe's API: the checkout request,
// the pay button's redirect, webhooks signed as Stripe signs them (once, twice, late, forged),
// overpayment, zero- and three-decimal currencies, refunds, and a Stripe that is down.
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { addMember, createClient, createInvoice, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { type FakeStripe, fakeStripe, pressPay, raw, sendEvent, sessionEvent, STRIPE_KEY, STRIPE_WEBHOOK_SECRET } from './fake-stripe';

let stripe: FakeStripe;
beforeAll(() => putRates({ EUR: 0.92, JPY: 150, KWD: 0.307 }));
beforeEach(() => {
  stripe = fakeStripe();
});
afterEach(() => vi.restoreAllMocks());

/** A workspace connected to Stripe, with an open invoice of `lines` to a client with an email. */
async function openInvoice(options: { currency?: string; unit_amount?: number; owner?: TestUser } = {}) {
  const owner = options.owner ?? (await createUser('Owner'));
  const connected = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'stripe', secret_key: STRIPE_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } });
  expect(connected.status).toBe(200);
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example', currency: options.currency ?? 'USD' });
  const draft = await createInvoice(owner.key, { client_id: client.id, line_items: [{ description: 'Design', quantity: 1, unit_amount: options.unit_amount ?? 100_000 }] });
  const sent = await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } });
  expect(sent.status).toBe(200);
  return { owner, invoice: sent.body, webhookUrl: connected.body.webhook_url as string };
}

const getInvoice = async (key: string, id: string) => (await call('GET', `/v1/invoices/${id}`, { key })).body;
const paymentsOf = async (key: string, id: string) => (await call('GET', `/v1/invoices/${id}/payments`, { key })).body.data;
const eventsOf = async (key: string, id: string) =>
  (await call('GET', '/api/events?limit=100', { key })).body.data.filter((e: any) => e.data.object.id === id).map((e: any) => e.type).sort();

async function paidSession(hostedUrl: string) {
  const res = await pressPay(hostedUrl);
  expect(res.status).toBe(303);
  return stripe.sessions.at(-1)!;
}

describe('the pay button and the checkout', () => {
  it('shows "Pay <amount due> online" and a CSP that lets the form reach Stripe', async () => {
    const { invoice } = await openInvoice();
    const page = await raw(invoice.hosted_url);
    const html = await page.text();
    expect(html).toContain('Pay $1,000.00 online');
    expect(html).toContain(`action="${new URL(invoice.hosted_url).pathname}/pay"`);
    // Where this Stripe's Checkout pages live (STRIPE_CHECKOUT_ORIGIN), and the redirect goes there.
    expect(page.headers.get('Content-Security-Policy')).toContain("form-action 'self' https://checkout.stripe.test;");
    expect((await pressPay(invoice.hosted_url)).headers.get('Location')).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    // Unset, it is Stripe's own.
    const unset = { ...env, STRIPE_CHECKOUT_ORIGIN: undefined } as unknown as Env;
    expect((await raw(invoice.hosted_url, {}, unset)).headers.get('Content-Security-Policy')).toContain("form-action 'self' https://checkout.stripe.com;");
    // A Stripe test key: no real money moves, and the page says so.
    expect(html).toContain('TEST MODE');
  });

  it('makes a Checkout Session with the fields and headers Stripe needs, and a second press reuses it', async () => {
    const { owner, invoice } = await openInvoice();
    const res = await pressPay(invoice.hosted_url);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(stripe.sessions[0]!.url);
    expect(stripe.requests).toHaveLength(1);
    const [request] = stripe.requests;
    const attempts = (await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data;
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ invoice_id: invoice.id, amount: 100_000, currency: 'USD', provider: 'stripe', status: 'open', checkout_url: stripe.sessions[0]!.url });
    expect(request).toMatchObject({
      method: 'POST',
      url: 'https://stripe.test/v1/checkout/sessions',
      headers: { authorization: `Bearer ${STRIPE_KEY}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': attempts[0].id },
    });
    expect(request!.headers['stripe-version']).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(request!.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '100000',
      'line_items[0][price_data][product_data][name]': `Invoice ${invoice.number}`,
      client_reference_id: invoice.id,
      'metadata[invoice_id]': invoice.id,
      'metadata[attempt_id]': attempts[0].id,
      'metadata[workspace_id]': expect.stringMatching(/^wsp_/),
      customer_email: 'ap@initech.example',
      success_url: `${invoice.hosted_url}?payment=success`,
      cancel_url: `${invoice.hosted_url}?payment=canceled`,
    });

    const again = await pressPay(invoice.hosted_url);
    expect(again.headers.get('Location')).toBe(stripe.sessions[0]!.url);
    expect(stripe.requests).toHaveLength(1);
    // Listed under /api/workflow as under /v1.
    expect((await call('GET', `/api/workflow/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data).toHaveLength(1);
  });

  it('a Stripe that is down, answers garbage or answers 60 MB leaves the invoice as it was, the attempt failed, and says so on the page', async () => {
    const { owner, invoice } = await openInvoice();
    for (const mode of ['down', 'garbage', 'huge'] as const) {
      stripe.mode = mode;
      const res = await pressPay(invoice.hosted_url);
      expect(res.status).toBe(502);
      const html = await res.text();
      expect(html).toContain('nothing was charged');
      expect(html).toContain(`Invoice ${invoice.number}`);
    }
    const after = await getInvoice(owner.key, invoice.id);
    expect(after).toMatchObject({ status: 'open', amount_paid: 0, amount_due: 100_000, updated_at: invoice.updated_at });
    const attempts = (await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data;
    expect(attempts.map((a: any) => a.status)).toEqual(['failed', 'failed', 'failed']);
    expect(attempts[0].failure_message).toContain('Stripe');
    // The 60 MB answer was read only to just past the 1 MB cap.
    expect(attempts[0].failure_message).toContain('more than 1 MB');
    expect(stripe.huge.read()).toBeLessThan(1024 * 1024 + 128 * 1024);
    // Once Stripe is back, the next press makes a checkout.
    stripe.mode = 'ok';
    expect((await pressPay(invoice.hosted_url)).status).toBe(303);
  });

  it('refuses a paid invoice (409 page) and shows no button without a provider (404 page)', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice();
    const session = await paidSession(invoice.hosted_url);
    expect((await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', session))).status).toBe(200);
    const paid = await pressPay(invoice.hosted_url);
    expect(paid.status).toBe(409);
    expect(await paid.text()).toContain('already paid');

    const other = await createUser('No provider');
    const plain = await createInvoice(other.key, { client_id: (await createClient(other.key)).id });
    const sent = (await call('POST', `/v1/invoices/${plain.id}/send`, { key: other.key, body: { email: false } })).body;
    expect(await (await raw(sent.hosted_url)).text()).not.toContain('online</button>');
    expect((await pressPay(sent.hosted_url)).status).toBe(404);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid' });
  });
});

describe('Stripe webhooks', () => {
  it('records a paid checkout once, however often and in whatever order Stripe reports it', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice();
    const session = await paidSession(invoice.hosted_url);
    const completed = sessionEvent('checkout.session.completed', session);
    expect((await sendEvent(webhookUrl, completed)).status).toBe(200);
    // The same event again, a second delivery of its kind, and the async success for the same PaymentIntent.
    expect((await sendEvent(webhookUrl, completed)).status).toBe(200);
    expect((await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', session))).status).toBe(200);
    expect((await sendEvent(webhookUrl, sessionEvent('checkout.session.async_payment_succeeded', session))).status).toBe(200);

    const after = await getInvoice(owner.key, invoice.id);
    expect(after).toMatchObject({ status: 'paid', amount_paid: 100_000, amount_due: 0, overpaid_amount: 0 });
    const payments = await paymentsOf(owner.key, invoice.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 100_000, currency: 'USD', source: 'online', provider: 'stripe', provider_payment_id: `pi_${session.id.slice(8, 32)}`, method: 'card', amount_refunded: 0 });
    expect(await eventsOf(owner.key, invoice.id)).toEqual(['invoice.created', 'invoice.paid', 'invoice.payment_recorded', 'invoice.sent']);
    const recorded = (await call('GET', '/api/events?type=invoice.payment_recorded', { key: owner.key })).body.data[0];
    expect(recorded.data.payment).toMatchObject({ id: payments[0].id, amount: 100_000, source: 'online' });
    expect(JSON.stringify(recorded)).not.toContain(STRIPE_KEY);
    // The payer gets a receipt.
    const deliveries = (await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data;
    expect(deliveries).toEqual([expect.objectContaining({ kind: 'receipt', to: ['ap@initech.example'] })]);
    expect((await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data[0].status).toBe('succeeded');
  });

  it('a completion that arrives after the checkout expired still records the money', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice();
    const session = await paidSession(invoice.hosted_url);
    expect((await sendEvent(webhookUrl, sessionEvent('checkout.session.expired', session, { payment_status: 'unpaid', payment_intent: null }))).status).toBe(200);
    expect((await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data[0].status).toBe('expired');
    expect((await sendEvent(webhookUrl, sessionEvent('checkout.session.async_payment_succeeded', session))).status).toBe(200);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid', amount_paid: 100_000 });
    expect(await paymentsOf(owner.key, invoice.id)).toHaveLength(1);
  });

  it('a pending bank payment waits for async_payment_succeeded; async_payment_failed fails the attempt', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice();
    const session = await paidSession(invoice.hosted_url);
    await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', session, { payment_status: 'unpaid' }));
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 0 });
    await sendEvent(webhookUrl, sessionEvent('checkout.session.async_payment_failed', session, { payment_status: 'unpaid' }));
    const [attempt] = (await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: owner.key })).body.data;
    expect(attempt.status).toBe('failed');
    // Other event types are acknowledged and ignored.
    expect((await sendEvent(webhookUrl, JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.created', data: { object: {} } }))).status).toBe(200);
    // The next press opens a new attempt.
    expect((await pressPay(invoice.hosted_url)).status).toBe(303);
    expect(stripe.sessions).toHaveLength(2);
  });

  it('a bad or stale signature is 400 and writes nothing', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice();
    const session = await paidSession(invoice.hosted_url);
    const body = sessionEvent('checkout.session.completed', session);
    const eventsBefore = await eventsOf(owner.key, invoice.id);
    const forged = await sendEvent(webhookUrl, body, 'whsec_c29tZW9uZS1lbHNlcy1zZWNyZXQ=');
    expect(forged.status).toBe(400);
    expect((await forged.json() as any).error.code).toBe('invalid_signature');
    expect((await sendEvent(webhookUrl, body, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301)).status).toBe(400);
    expect((await raw(webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })).status).toBe(400);
    // A body changed after signing.
    const { signPayload } = await import('../../src/lib/signed-webhook');
    const signedOther = await signPayload(STRIPE_WEBHOOK_SECRET, sessionEvent('checkout.session.expired', session));
    expect((await raw(webhookUrl, { method: 'POST', headers: { 'Stripe-Signature': signedOther }, body })).status).toBe(400);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 0, updated_at: invoice.updated_at });
    expect(await paymentsOf(owner.key, invoice.id)).toEqual([]);
    expect(await eventsOf(owner.key, invoice.id)).toEqual(eventsBefore);
    // Among several v1 signatures one valid is enough (a secret being rolled).
    const good = await signPayload(STRIPE_WEBHOOK_SECRET, body);
    const header = `${good},v1=${'0'.repeat(64)}`.replace(/^(t=\d+),/, `$1,v1=${'a'.repeat(64)},`);
    expect((await raw(webhookUrl, { method: 'POST', headers: { 'Stripe-Signature': header }, body })).status).toBe(200);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid' });
  });

  it('another workspace\'s provider URL cannot act on this workspace\'s invoice', async () => {
    const a = await openInvoice();
    const b = await openInvoice({ owner: await createUser('Other') });
    const session = await paidSession(a.invoice.hosted_url);
    const body = sessionEvent('checkout.session.completed', session);
    // Signed with the same secret (both workspaces registered it), sent to B's URL: B has no such attempt.
    expect((await sendEvent(b.webhookUrl, body)).status).toBe(200);
    expect(await getInvoice(a.owner.key, a.invoice.id)).toMatchObject({ status: 'open', amount_paid: 0 });
    expect(await paymentsOf(a.owner.key, a.invoice.id)).toEqual([]);
    // An unknown provider id, or the wrong provider name, is a 404.
    expect((await sendEvent(a.webhookUrl.replace(/ppr_\w+$/, 'ppr_01JA0000000000000000000000'), body)).status).toBe(404);
    expect((await sendEvent(a.webhookUrl.replace('/stripe/', '/sandbox/'), body)).status).toBe(404);
  });

  it('two paid checkouts: the invoice is paid, the surplus is overpaid_amount, and invoice.overpaid is written', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice();
    await call('PATCH', '/api/workspace', { key: owner.key, body: { payments_allow_partial: true } });
    const partial = await pressPay(invoice.hosted_url, '600.00');
    expect(partial.status).toBe(303);
    const first = stripe.sessions.at(-1)!;
    expect(first.amount_total).toBe(60_000);
    const full = await pressPay(invoice.hosted_url, '1,000');
    expect(full.status).toBe(303);
    const second = stripe.sessions.at(-1)!;
    expect(second.amount_total).toBe(100_000);
    await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', second));
    await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', first));
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid', amount_paid: 100_000, amount_due: 0, overpaid_amount: 60_000 });
    expect(await paymentsOf(owner.key, invoice.id)).toHaveLength(2);
    expect(await eventsOf(owner.key, invoice.id)).toContain('invoice.overpaid');
  });

  it('refuses a typed amount that is not a number, below the minimum or above what is due', async () => {
    const { owner, invoice } = await openInvoice();
    await call('PATCH', '/api/workspace', { key: owner.key, body: { payments_allow_partial: true } });
    for (const typed of ['ten', '1000.001', '0.10', '1000.01']) {
      const res = await pressPay(invoice.hosted_url, typed);
      expect(res.status, typed).toBe(422);
      expect(await res.text()).toMatch(/Enter/);
    }
    expect(stripe.requests).toEqual([]);
  });
});

describe('currencies with other minor units', () => {
  it('charges JPY in whole yen', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice({ currency: 'JPY', unit_amount: 12_000 });
    expect(await (await raw(invoice.hosted_url)).text()).toContain('Pay ¥12,000 online');
    const session = await paidSession(invoice.hosted_url);
    expect(stripe.requests[0]!.form).toMatchObject({ 'line_items[0][price_data][currency]': 'jpy', 'line_items[0][price_data][unit_amount]': '12000' });
    await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', session));
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid', amount_paid: 12_000, overpaid_amount: 0 });
  });

  it('charges KWD in Stripe\'s thousandths ending in 0, rounding the amount due up to the next 0.010', async () => {
    const { owner, invoice, webhookUrl } = await openInvoice({ currency: 'KWD', unit_amount: 12_340 });
    expect(webhookUrl).toContain('/webhooks/payments/stripe/ppr_');
    expect(await (await raw(invoice.hosted_url)).text()).toMatch(/Pay KWD\s12\.340 online/);
    const session = await paidSession(invoice.hosted_url);
    expect(stripe.requests[0]!.form['line_items[0][price_data][unit_amount]']).toBe('12340');
    await sendEvent(webhookUrl, sessionEvent('checkout.session.completed', session));
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'paid', amount_paid: 12_340 });

    const odd = await openInvoice({ currency: 'KWD', unit_amount: 12_345, owner });
    expect(await (await raw(odd.invoice.hosted_url)).text()).toMatch(/Pay KWD\s12\.350 online/);
    const oddSession = await paidSession(odd.invoice.hosted_url);
    expect(oddSession.amount_total).toBe(12_350);
    await sendEvent(odd.webhookUrl, sessionEvent('checkout.session.completed', oddSession));
    expect(await getInvoice(owner.key, odd.invoice.id)).toMatchObject({ status: 'paid', amount_paid: 12_345, overpaid_amount: 5 });
    // A typed amount Stripe cannot charge is refused in words.
    await call('PATCH', '/api/workspace', { key: owner.key, body: { payments_allow_partial: true } });
    const third = await openInvoice({ currency: 'KWD', unit_amount: 12_345, owner });
    const res = await pressPay(third.invoice.hosted_url, '5.125');
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/steps of KWD\s0\.010/);
  });
});

describe('refunds', () => {
  async function paidOnline() {
    const opened = await openInvoice();
    const session = await paidSession(opened.invoice.hosted_url);
    await sendEvent(opened.webhookUrl, sessionEvent('checkout.session.completed', session));
    const [payment] = await paymentsOf(opened.owner.key, opened.invoice.id);
    return { ...opened, payment };
  }

  it('refunds part through Stripe, reopening the invoice, then the rest by default; more is a 422', async () => {
    const { owner, invoice, payment } = await paidOnline();
    const path = `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`;
    const partial = await call('POST', path, { key: owner.key, body: { amount: 30_000, reason: 'Scope reduced' } });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ id: expect.stringMatching(/^rfd_/), payment_id: payment.id, amount: 30_000, status: 'succeeded', provider_refund_id: expect.stringMatching(/^re_/), reason: 'Scope reduced' });
    const request = stripe.requests.at(-1)!;
    expect(request).toMatchObject({ url: 'https://stripe.test/v1/refunds', headers: { 'idempotency-key': partial.body.id, authorization: `Bearer ${STRIPE_KEY}` } });
    expect(request.form).toMatchObject({ payment_intent: payment.provider_payment_id, amount: '30000' });
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 70_000, amount_due: 30_000, paid_at: null });
    const refunded = (await call('GET', '/api/events?type=invoice.payment_refunded', { key: owner.key })).body.data[0];
    expect(refunded.data.refund).toMatchObject({ id: partial.body.id, amount: 30_000 });

    const tooMuch = await call('POST', path, { key: owner.key, body: { amount: 70_001 } });
    expectError(tooMuch, 422, 'validation_failed');
    const rest = await call('POST', path, { key: owner.key, body: {} });
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe(70_000);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 0, amount_due: 100_000 });
    expect((await paymentsOf(owner.key, invoice.id))[0].amount_refunded).toBe(100_000);
    expectError(await call('POST', path, { key: owner.key, body: {} }), 409, 'invalid_state');
  });

  it('a manual payment\'s refund is recorded without Stripe; the dashboard counts payments minus refunds', async () => {
    const owner = await createUser('Owner');
    const draft = await createInvoice(owner.key);
    await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } });
    await call('POST', `/v1/invoices/${draft.id}/payments`, { key: owner.key, body: { amount: 100_000 } });
    const [payment] = await paymentsOf(owner.key, draft.id);
    expect(payment).toMatchObject({ source: 'manual', provider: null, provider_payment_id: null });
    const refund = await call('POST', `/api/workflow/invoices/${draft.id}/payments/${payment.id}/refunds`, { key: owner.key, body: { amount: 25_000 } });
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({ status: 'succeeded', provider_refund_id: null });
    expect(stripe.requests).toEqual([]);
    const dashboard = (await call('GET', '/api/workflow/dashboard', { key: owner.key })).body;
    expect(dashboard.totals.collected).toBe(75_000);
  });

  it('a refund gives back its share of the tax: tax_collected and profit follow it, from the roll-ups and from the days alike', async () => {
    const owner = await createUser('Owner');
    const draft = await createInvoice(owner.key, { line_items: [{ description: 'Design work', quantity: 1, unit_amount: 100_000, tax_rate: 19 }] });
    await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } });
    await call('POST', `/v1/invoices/${draft.id}/payments`, { key: owner.key, body: { amount: 119_000 } });
    const [payment] = await paymentsOf(owner.key, draft.id);
    expect(payment.tax).toBe(19_000);
    // Half the payment back: half its tax (9,500) is no longer collected.
    expect((await call('POST', `/v1/invoices/${draft.id}/payments/${payment.id}/refunds`, { key: owner.key, body: { amount: 59_500 } })).status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const monthEnd = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const dayByDay = (await call('GET', `/api/workflow/dashboard?from=${today.slice(0, 8)}01&to=${today}`, { key: owner.key })).body.totals;
    const wholeMonth = (await call('GET', `/api/workflow/dashboard?from=${today.slice(0, 8)}01&to=${monthEnd}`, { key: owner.key })).body.totals;
    for (const totals of [dayByDay, wholeMonth]) expect(totals).toMatchObject({ collected: 59_500, tax_collected: 9_500, profit: 50_000 });
  });

  it('gives back the exact tax share of a refund however large the amounts', async () => {
    const owner = await createUser('Owner');
    // 2 × refund × tax is past 2^63 here: worked out in SQL it would turn into a float.
    const draft = await createInvoice(owner.key, { line_items: [{ description: 'Design work', quantity: 1, unit_amount: 7_000_000_000_000, tax_rate: 19 }] });
    await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } });
    await call('POST', `/v1/invoices/${draft.id}/payments`, { key: owner.key, body: { amount: 8_330_000_000_000 } });
    const [payment] = await paymentsOf(owner.key, draft.id);
    expect(payment.tax).toBe(1_330_000_000_000);
    expect((await call('POST', `/v1/invoices/${draft.id}/payments/${payment.id}/refunds`, { key: owner.key, body: { amount: 3_333_333_333_333 } })).status).toBe(201);
    // 3,333,333,333,333 × 1,330,000,000,000 ÷ 8,330,000,000,000 = 532,212,885,154.008…, rounded.
    const totals = (await call('GET', '/api/workflow/dashboard', { key: owner.key })).body.totals;
    expect(totals.tax_collected).toBe(1_330_000_000_000 - 532_212_885_154);
  });

  it('a Stripe that answers garbage leaves the refund pending, its amount held, and says nothing of the key', async () => {
    const { owner, invoice, payment } = await paidOnline();
    stripe.mode = 'garbage'; // Stripe may have refunded; its answer did not arrive
    const res = await call('POST', `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`, { key: owner.key, body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', amount: 100_000, provider_refund_id: null });
    expect(JSON.stringify(res.body)).not.toContain(STRIPE_KEY);
    expect(await getInvoice(owner.key, invoice.id)).toMatchObject({ status: 'open', amount_paid: 0 });
    expect((await paymentsOf(owner.key, invoice.id))[0].amount_refunded).toBe(100_000);
  });

  it('each refund reaches Stripe with its own id as the Idempotency-Key; a retried request is answered as before without asking again', async () => {
    const { owner, invoice, payment } = await paidOnline();
    const path = `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`;
    const headers = { 'Idempotency-Key': 'refund-once' };
    const first = await call('POST', path, { key: owner.key, headers, body: { amount: 40_000 } });
    expect(first.status).toBe(201);
    const again = await call('POST', path, { key: owner.key, headers, body: { amount: 40_000 } });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const sent = stripe.requests.filter((r) => r.url.endsWith('/v1/refunds')).map((r) => r.headers['idempotency-key']);
    expect(sent).toEqual([first.body.id]);
    // Another request is another refund: another key.
    const second = await call('POST', path, { key: owner.key, headers: { 'Idempotency-Key': 'refund-two' }, body: { amount: 10_000 } });
    expect(second.status).toBe(201);
    expect(stripe.requests.filter((r) => r.url.endsWith('/v1/refunds')).at(-1)!.headers['idempotency-key']).toBe(second.body.id);
  });

  it('needs the admin role; payments and attempts are readable by a viewer', async () => {
    const { owner, invoice, payment } = await paidOnline();
    const member = await addMember(owner.key, 'member');
    const viewer = await addMember(owner.key, 'viewer');
    expectError(await call('POST', `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`, { key: member.key, body: {} }), 403, 'forbidden');
    expect((await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: viewer.key })).status).toBe(200);
    expect((await call('GET', `/v1/invoices/${invoice.id}/payment-attempts`, { key: viewer.key })).status).toBe(200);
    // Another workspace's payment is a 404.
    const other = await createUser('Other');
    expectError(await call('POST', `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`, { key: other.key, body: {} }), 404, 'not_found');
  });
});

describe('the provider setting', () => {
  it('never shows, logs or stores a secret in clear', async () => {
    const owner = await createUser('Owner');
    const log = vi.spyOn(console, 'log');
    const put = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'stripe', secret_key: STRIPE_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ provider: 'stripe', connected: true, key_last4: 'abcd', webhook_url: expect.stringMatching(/^https:\/\/workspace\.test\/webhooks\/payments\/stripe\/ppr_[0-9A-Z]{26}$/), test_mode: true });
    const got = await call('GET', '/api/workspace/payment-provider', { key: owner.key });
    expect(got.body).toEqual(put.body);
    const stored = JSON.stringify(await env.DB.prepare('SELECT * FROM payment_providers').all()) + JSON.stringify(await env.DB_WORKSPACES_2.prepare('SELECT * FROM payment_providers').all());
    expect(stored).not.toContain(STRIPE_KEY);
    expect(stored).not.toContain(STRIPE_WEBHOOK_SECRET);
    expect(JSON.stringify(log.mock.calls)).not.toContain(STRIPE_KEY);
    // Connecting again keeps the webhook URL.
    const again = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'stripe', secret_key: 'sk_live_51OtherKeyForTests000wxyz', webhook_secret: STRIPE_WEBHOOK_SECRET } });
    expect(again.body).toMatchObject({ key_last4: 'wxyz', test_mode: false, webhook_url: put.body.webhook_url });
    expect((await call('DELETE', '/api/workspace/payment-provider', { key: owner.key })).status).toBe(204);
    expect((await call('GET', '/api/workspace/payment-provider', { key: owner.key })).body).toMatchObject({ connected: false, provider: null });
  });

  it('checks what it is given, and takes an admin', async () => {
    const owner = await createUser('Owner');
    const bad = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'stripe', secret_key: 'pk_test_publishable', webhook_secret: 'nope' } });
    expectError(bad, 422, 'validation_failed');
    const member = await addMember(owner.key, 'member');
    expectError(await call('PUT', '/api/workspace/payment-provider', { key: member.key, body: { provider: 'sandbox' } }), 403, 'forbidden');
    expectError(await call('GET', '/api/workspace/payment-provider', { key: member.key }), 403, 'forbidden');
  });
});
