// A local Stripe for tests: outbound fetch to STRIPE_API_BASE (https://stripe.test in
// vitest.config.ts, its Checkout pages at STRIPE_CHECKOUT_ORIGIN, https://checkout.stripe.test) is answered here in Stripe's own shapes and recorded, and events are signed
// the way Stripe signs them. Anything else fetched is refused, so nothing reaches the internet.
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { open } from '../helpers/api';
import { type HugeAnswer, hugeAnswer } from '../helpers/huge-answer';
import { signPayload } from '../../src/lib/signed-webhook';

export const STRIPE_KEY = 'sk_test_51FakeKeyForTests0000abcd';
export const STRIPE_WEBHOOK_SECRET = 'whsec_dGVzdC1vbmx5LXN0cmlwZS13ZWJob29rLXNlY3JldA==';

export type RecordedRequest = { method: string; url: string; headers: Record<string, string>; form: Record<string, string> };
export type Session = { id: string; url: string; amount_total: number; currency: string; metadata: Record<string, string>; customer_email: string | null };

export type FakeStripe = {
  requests: RecordedRequest[];
  sessions: Session[];
  /**
   * How the next calls are answered: as Stripe, as a 502 with an HTML body, not at all, with 60 MB
   * made as they are read, or (refunds) with Stripe's 400 for a charge it will not refund.
   */
  mode: 'ok' | 'garbage' | 'down' | 'huge' | 'refuse';
  huge: HugeAnswer;
  /** The status a new refund is made with. */
  refundStatus: 'succeeded' | 'pending' | 'failed';
  /** How long a refund takes to be answered, so requests at once overlap at the provider. */
  refundDelayMs: number;
  /** The refunds made, by Idempotency-Key: Stripe answers a key it has seen with the refund it made. */
  refunds: Map<string, { id: string; amount: number; payment_intent: string; status: string; metadata: Record<string, string> }>;
};

export function fakeStripe(): FakeStripe {
  const fake: FakeStripe = { requests: [], sessions: [], mode: 'ok', huge: hugeAnswer(), refundStatus: 'succeeded', refundDelayMs: 0, refunds: new Map() };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const url = new URL(request.url);
    if (url.origin !== 'https://stripe.test') return new Response('Outbound network is disabled in tests.', { status: 503 });
    // Stripe's API takes forms: decoded from bytes, as the runtime warns of .text() on a form.
    const text = new TextDecoder().decode(await request.arrayBuffer());
    fake.requests.push({
      method: request.method, url: request.url, headers: Object.fromEntries(request.headers), form: Object.fromEntries(new URLSearchParams(text)),
    });
    if (fake.mode === 'down') throw new TypeError('fetch failed');
    if (fake.mode === 'huge') return fake.huge.response();
    if (fake.mode === 'garbage') return new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    const form = fake.requests.at(-1)!.form;
    if (url.pathname === '/v1/checkout/sessions') {
      const id = `cs_test_${crypto.randomUUID().replace(/-/g, '')}`;
      const session: Session = {
        id, url: `https://checkout.stripe.test/c/pay/${id}`, amount_total: Number(form['line_items[0][price_data][unit_amount]']),
        currency: form['line_items[0][price_data][currency]']!, customer_email: form.customer_email ?? null,
        metadata: { invoice_id: form['metadata[invoice_id]']!, attempt_id: form['metadata[attempt_id]']!, workspace_id: form['metadata[workspace_id]']! },
      };
      fake.sessions.push(session);
      return Response.json({
        id, object: 'checkout.session', url: session.url, mode: 'payment', status: 'open', payment_status: 'unpaid', payment_intent: null,
        amount_total: session.amount_total, currency: session.currency, client_reference_id: form.client_reference_id, metadata: session.metadata,
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
      });
    }
    if (url.pathname === '/v1/refunds') {
      if (fake.refundDelayMs) await new Promise((resolve) => setTimeout(resolve, fake.refundDelayMs));
      if (fake.mode === 'refuse') {
        return Response.json({ error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } }, { status: 400 });
      }
      const key = request.headers.get('Idempotency-Key') ?? crypto.randomUUID();
      const made = fake.refunds.get(key) ?? {
        id: `re_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`, amount: Number(form.amount), payment_intent: form.payment_intent!,
        status: fake.refundStatus, metadata: { refund_id: form['metadata[refund_id]']! },
      };
      fake.refunds.set(key, made);
      return Response.json({ ...made, object: 'refund', currency: 'usd' });
    }
    return Response.json({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${url.pathname}).` } }, { status: 404 });
  });
  return fake;
}

/** A Checkout Session event as Stripe sends it. */
export function sessionEvent(type: string, session: Session, extra: { payment_status?: string; payment_intent?: string | null; amount_total?: number } = {}) {
  return JSON.stringify({
    id: `evt_${crypto.randomUUID().replace(/-/g, '')}`,
    object: 'event',
    api_version: '2024-06-20',
    created: Math.floor(Date.now() / 1000),
    type,
    data: {
      object: {
        id: session.id, object: 'checkout.session', mode: 'payment', status: type === 'checkout.session.expired' ? 'expired' : 'complete',
        payment_status: extra.payment_status ?? 'paid', payment_intent: extra.payment_intent === undefined ? `pi_${session.id.slice(8, 32)}` : extra.payment_intent,
        amount_total: extra.amount_total ?? session.amount_total, currency: session.currency, customer_details: { email: session.customer_email }, metadata: session.metadata,
      },
    },
  });
}

/** A Refund's event as Stripe sends it (`refund.updated`, `refund.failed`, `charge.refund.updated`). */
export function refundEvent(type: string, refund: { id: string; amount: number; payment_intent: string; metadata: Record<string, string> }, status: string) {
  return JSON.stringify({
    id: `evt_${crypto.randomUUID().replace(/-/g, '')}`, object: 'event', api_version: '2024-06-20', created: Math.floor(Date.now() / 1000), type,
    data: { object: { ...refund, object: 'refund', currency: 'usd', status } },
  });
}

/** The refunds Stripe was asked for (each call, with its form and Idempotency-Key). */
export const refundCalls = (fake: FakeStripe) => fake.requests.filter((r) => r.url.endsWith('/v1/refunds'));

/** A page, form or webhook at an absolute URL of the worker, as a browser or provider sends it (no key). */
export const raw = (url: string, init: RequestInit = {}, bindings: Env = env) => open(url, { redirect: 'manual', ...init }, bindings);

/** Posts `body` to a webhook URL, signed with `secret` at `timestamp` as Stripe does. */
export async function sendEvent(webhookUrl: string, body: string, secret = STRIPE_WEBHOOK_SECRET, timestamp?: number) {
  const signature = await signPayload(secret, body, timestamp);
  return raw(webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body });
}

/** Presses the pay button of a hosted page (a form post), with `amount` when given. */
export const pressPay = (hostedUrl: string, amount?: string) =>
  raw(`${hostedUrl}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: amount === undefined ? '' : new URLSearchParams({ amount }).toString() });
