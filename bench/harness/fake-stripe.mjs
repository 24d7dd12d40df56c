// A local stand-in for Stripe's Checkout Sessions API, for the payment workloads: it answers
// `POST /v1/checkout/sessions` as Stripe does (an id `cs_…`, the hosted `url`, `expires_at`) and
// keeps each session's attempt, amount and currency, from which the webhook workload writes the
// `checkout.session.completed` events Stripe would send, signed as Stripe signs them.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

export async function fakeStripe() {
  const sessions = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` } }));
      }
      const form = new URLSearchParams(body);
      const id = `cs_test_${randomBytes(16).toString('hex')}`;
      sessions.push({ id, attemptId: form.get('metadata[attempt_id]'), amount: Number(form.get('line_items[0][price_data][unit_amount]')), currency: form.get('line_items[0][price_data][currency]') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.com/c/pay/${id}`, expires_at: Math.floor(Date.now() / 1000) + 86_400 }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, sessions, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The `checkout.session.completed` event of a paid session, and its Stripe-Signature header. */
export function completedEvent(session, webhookSecret) {
  const body = JSON.stringify({
    id: `evt_${randomBytes(12).toString('hex')}`, object: 'event', type: 'checkout.session.completed',
    data: { object: { id: session.id, object: 'checkout.session', payment_status: 'paid', amount_total: session.amount, currency: session.currency, payment_intent: `pi_${randomBytes(12).toString('hex')}`, metadata: { attempt_id: session.attemptId }, customer_details: { email: 'ap@client.example' } } },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', webhookSecret).update(`${timestamp}.${body}`).digest('hex');
  return { body, headers: { 'stripe-signature': `t=${timestamp},v1=${signature}` } };
}
