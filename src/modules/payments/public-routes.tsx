/** @jsxImportSource hono/jsx */
// The parts of online payment that need no key (§16): the pay button's press on the hosted page
// (`POST /i/<token>/pay`, under the hosted page's rate limit, which its router applies to all of
// /i/*), the providers' webhooks, and the sandbox's own checkout page.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { invoices, paymentAttempts } from '../../db/schema';
import type { AppEnv } from '../../env';
import { systemContext } from '../../lib/context';
import { workspaceDatabases } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { isId } from '../../lib/ids';
import { formatMoney } from '../../lib/money';
import { signPayload } from '../../lib/signed-webhook';
import { requestEnvFor } from '../../middleware/d1-session';
import { labelsFor } from '../documents/labels/language';
import { documentOf } from '../invoices/document-for';
import { findByToken } from '../invoices/hosted-link';
import { invoiceLinks, linkOrigin } from '../invoices/links';
import { notFoundPage, pageResponse } from '../invoices/render/respond';
import type { BillToSnapshot } from '../invoices/serialize';
import { readInvoiceWithParties } from '../invoices/service';
import { pressPay } from './checkout';
import { connectedProvider, type ProviderRow, secretsOf } from './connection';
import { readPayForm } from './pay-form';
import { payPanel, type PanelInput } from './pay-panel';
import { sandboxPaymentId } from './providers/sandbox';
import { toStripeAmount } from './providers/stripe';
import type { AttemptRow } from './serialize';
import { receiveProviderWebhook } from './webhook';

type Found = NonNullable<Awaited<ReturnType<typeof findByToken>>>;

/** What the pay button works on, from the invoice a hosted link opened. */
export function panelInput(c: Context<AppEnv>, found: Found): PanelInput {
  const billTo = found.invoice.row.billTo ? (JSON.parse(found.invoice.row.billTo) as BillToSnapshot) : null;
  return {
    ctx: found.ctx,
    invoice: found.invoice.row,
    workspace: { paymentsAllowPartial: found.workspace.paymentsAllowPartial },
    // The invoice's language, fixed when it was sent (§20); a hosted invoice is never a draft.
    locale: found.invoice.row.locale ?? found.client.locale ?? found.workspace.locale,
    clientEmail: billTo?.email ?? found.client.email ?? null,
    token: c.req.param('token') ?? '',
    origin: linkOrigin(c.env, c.req.url),
  };
}

export const hostedPayRoutes = new Hono<AppEnv>().post('/:token/pay', async (c) => {
  const found = await findByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
  if (!found) return notFoundPage(c);
  const input = panelInput(c, found);
  const form = await readPayForm(c.req.raw);
  const { hosted_url: hostedUrl } = await invoiceLinks(c.env, input.origin, found.invoice.row);
  const outcome = form.ok
    ? await pressPay(input, form.amount, { origin: input.origin, hostedUrl: hostedUrl! })
    : ({ kind: 'refused', status: form.status, message: labelsFor(input.locale).pay[form.problem] } as const);
  if (outcome.kind === 'redirect') return c.redirect(outcome.url, 303);
  const doc = await documentOf(found.ctx, found, input.origin);
  return pageResponse(c, doc, { countView: false, extra: await payPanel(input, c, outcome) });
});

export const providerWebhookRoutes = new Hono<AppEnv>().post('/payments/:provider/:id', async (c) => {
  await receiveProviderWebhook(c.env, (name) => requestEnvFor(c, name), c.req.param('provider'), c.req.param('id'), c.req.raw);
  return c.json({ received: true }, 200);
});

// ---- the sandbox's checkout ------------------------------------------------------------------

const SANDBOX_CSP = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
const SANDBOX_STYLE = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1c1f24;background:#eef0f4}
main{max-width:440px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.1)}
.test-mode{display:block;text-align:center;font-weight:700;letter-spacing:.1em;background:#fff4d6;color:#7a5200;padding:6px;border-radius:8px}
.amount{font-size:2rem;font-weight:700;margin:12px 0}
form{display:grid;gap:10px;margin-top:16px}
button{font:inherit;font-weight:600;padding:12px;border-radius:8px;border:1px solid #1f4fd1;background:#1f4fd1;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f4fd1}button.fail{background:#fff;color:#a32116;border-color:#a32116}
`;

/** The attempt a sandbox checkout is for, with the env of its workspace's database. */
async function sandboxAttempt(c: Context<AppEnv>, attemptId: string) {
  if (!isId('paymentAttempt', attemptId)) return undefined;
  for (const name of workspaceDatabases(c.env)) {
    const env = requestEnvFor(c, name);
    const db = createDb(env.DB);
    const [attempt] = await db.select().from(paymentAttempts).where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.provider, 'sandbox')));
    if (!attempt) continue;
    const found = await readInvoiceWithParties(db, and(eq(invoices.id, attempt.invoiceId), eq(invoices.workspaceId, attempt.workspaceId))!);
    const connected = found && (await connectedProvider(systemContext(env, attempt.workspaceId, 'sandbox')));
    if (!found || !connected || connected.row.provider !== 'sandbox') return undefined;
    return { attempt, found, row: connected.row, env };
  }
  return undefined;
}

/** A Checkout Session event as Stripe sends it, for the sandbox's attempt. */
function sessionEvent(type: string, attempt: AttemptRow, paymentStatus: 'paid' | 'unpaid', email: string | null) {
  return JSON.stringify({
    id: `evt_sandbox_${crypto.randomUUID().replace(/-/g, '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: attempt.providerCheckoutId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: paymentStatus,
        amount_total: toStripeAmount(attempt.amount, attempt.currency),
        currency: attempt.currency.toLowerCase(),
        client_reference_id: attempt.invoiceId,
        customer_details: { email },
        payment_intent: sandboxPaymentId(attempt.id),
        metadata: { invoice_id: attempt.invoiceId, attempt_id: attempt.id, workspace_id: attempt.workspaceId },
      },
    },
  });
}

/** Sends an event to the workspace's own webhook URL, signed as Stripe signs, through the same receiver. */
async function deliverToSelf(c: Context<AppEnv>, row: ProviderRow, env: Env, body: string) {
  const { webhookSecret } = await secretsOf(env, row);
  const url = `${linkOrigin(c.env, c.req.url)}/webhooks/payments/sandbox/${row.id}`;
  const request = new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': await signPayload(webhookSecret, body) }, body });
  return receiveProviderWebhook(c.env, (name) => requestEnvFor(c, name), 'sandbox', row.id, request);
}

export const sandboxRoutes = new Hono<AppEnv>()
  .get('/checkout/:attempt', async (c) => {
    const found = await sandboxAttempt(c, c.req.param('attempt'));
    if (!found) return notFoundPage(c);
    const { attempt, found: invoice } = found;
    const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
    const amount = formatMoney(attempt.amount, attempt.currency, invoice.workspace.locale);
    const open = attempt.status === 'open';
    return c.html(
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex" />
          <link rel="icon" href="data:," />
          <title>{`TEST MODE: pay invoice ${invoice.invoice.row.number}`}</title>
          <style nonce={nonce} dangerouslySetInnerHTML={{ __html: SANDBOX_STYLE }} />
        </head>
        <body>
          <main>
            <div class="card">
              <span class="test-mode">TEST MODE</span>
              <p>Sandbox checkout: no real money moves.</p>
              <h1>{`Invoice ${invoice.invoice.row.number}`}</h1>
              <p class="muted">{invoice.workspace.name}</p>
              <p class="amount">{amount}</p>
              {open ? (
                <form method="post">
                  <button type="submit" name="outcome" value="pay">{`Pay ${amount}`}</button>
                  <button type="submit" name="outcome" value="bank" class="secondary">Pay by bank (pending, then succeeds)</button>
                  <button type="submit" name="outcome" value="fail" class="fail">Fail</button>
                </form>
              ) : (
                <p>{`This checkout is ${attempt.status}.`}</p>
              )}
            </div>
          </main>
        </body>
      </html>,
      200,
      { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex', 'Content-Security-Policy': SANDBOX_CSP(nonce) },
    );
  })
  .post('/checkout/:attempt', async (c) => {
    const found = await sandboxAttempt(c, c.req.param('attempt'));
    if (!found) return notFoundPage(c);
    const { attempt, row, env } = found;
    const form = await c.req.parseBody();
    const { hosted_url: hostedUrl } = await invoiceLinks(c.env, linkOrigin(c.env, c.req.url), found.found.invoice.row);
    const back = (payment: string) => c.redirect(`${hostedUrl}?payment=${payment}`, 303);
    if (attempt.status !== 'open') return back(attempt.status === 'succeeded' ? 'success' : 'failed');
    const email = found.found.client.email;
    switch (form.outcome) {
      case 'pay':
        await deliverToSelf(c, row, env, sessionEvent('checkout.session.completed', attempt, 'paid', email));
        return back('success');
      case 'bank':
        // A bank payment: the checkout completes unpaid now, and the money settles a moment later.
        await deliverToSelf(c, row, env, sessionEvent('checkout.session.completed', attempt, 'unpaid', email));
        c.executionCtx.waitUntil(deliverToSelf(c, row, env, sessionEvent('checkout.session.async_payment_succeeded', attempt, 'paid', email)));
        return back('success');
      case 'fail':
        await deliverToSelf(c, row, env, sessionEvent('checkout.session.async_payment_failed', attempt, 'unpaid', email));
        return back('failed');
      default:
        return c.redirect(c.req.path, 303);
    }
  });
