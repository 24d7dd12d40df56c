// Getting paid online (§16), keyed: the workspace's payment provider (under /api), and an
// invoice's payments, payment attempts and refunds (with the invoices, under /api/workflow and /v1).
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams, idSchema, listQuery } from '../../lib/schemas';
import { getInvoice } from '../invoices/service';
import { listPaymentAttempts } from './checkout';
import { paymentsFx } from './fx';
import { connectProvider, disconnectProvider, getProviderSetting, serializeProvider } from './connection';
import { listInvoicePayments, refundedByPayment, refundPayment } from './refunds';
import { providerSettingRoutes } from './provider-setting-routes';
import * as S from './schemas';
import { serializeAttempt, serializePayment, serializeRefund } from './serialize';

const tags = ['Payments'];
const params = idParams('invoice');
const refundParams = idParams('invoice').extend({ payment_id: idSchema('payment').openapi({ param: { name: 'payment_id', in: 'path' } }) });

export const paymentProviderRoutes = providerSettingRoutes({
  path: '/workspace/payment-provider', noun: 'PaymentProvider', tags, body: S.ConnectProviderBody, reply: S.PaymentProvider, serialize: serializeProvider,
  connect: {
    run: connectProvider,
    summary: 'Connect a payment provider',
    description: 'Turns on the pay button of the workspace\'s hosted invoices. `stripe` takes your secret key and the signing secret of the Stripe webhook endpoint you point at `webhook_url`, subscribed to `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed` and `checkout.session.expired`. `sandbox` needs no account, moves no money and exists only where the worker\'s `PAYMENTS_SANDBOX` is `true` (never in production: 422 there). Connecting again replaces the settings and keeps `webhook_url`.',
  },
  get: { run: getProviderSetting, summary: 'The connected payment provider', description: 'Never a secret. `connected: false` when none is.' },
  disconnect: {
    run: disconnectProvider,
    summary: 'Disconnect the payment provider',
    description: 'Online payment is off: hosted pages show no pay button, and the provider\'s webhook URL answers 404. Payments already recorded stay.',
  },
});

export const invoicePaymentRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/payments', operationId: 'listInvoicePayments', tags, access: 'user', role: 'viewer',
      summary: 'The payments of an invoice',
      description: 'Every payment, recorded or received online, with what has been refunded of it.',
      request: { params, query: listQuery },
      responses: { 200: jsonContent(S.PaymentPage, 'A page of payments.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const { limit, cursor } = c.req.valid('query');
      const invoice = await getInvoice(ctx, c.req.valid('param').id);
      const rows = await listInvoicePayments(ctx, invoice.row.id, limit, decodeCursor(cursor, 'payment'));
      const [refunded, fx] = await Promise.all([refundedByPayment(ctx, rows.map((r) => r.id)), paymentsFx(ctx, invoice.row, rows)]);
      return c.json(toPage(rows, limit, (row) => ({ ...serializePayment(row, refunded.get(row.id) ?? 0), fx: fx.get(row.id) ?? null })), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/payment-attempts', operationId: 'listInvoicePaymentAttempts', tags, access: 'user', role: 'viewer',
      summary: 'The online payment attempts of an invoice',
      description: 'Each press of the hosted page\'s pay button: `open` until the client pays (`succeeded`), the payment fails (`failed`) or the checkout runs out (`expired`); a checkout the provider could not make is `failed` at once.',
      request: { params, query: listQuery },
      responses: { 200: jsonContent(S.PaymentAttemptPage, 'A page of payment attempts.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const { limit, cursor } = c.req.valid('query');
      const invoice = await getInvoice(ctx, c.req.valid('param').id);
      const rows = await listPaymentAttempts(ctx, invoice.row.id, limit, decodeCursor(cursor, 'paymentAttempt'));
      return c.json(toPage(rows, limit, serializeAttempt), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/payments/{payment_id}/refunds', operationId: 'refundInvoicePayment', tags, access: 'user', role: 'admin', errors: [409],
      summary: 'Refund a payment',
      description: 'An online payment is refunded through its provider, reserved first (`pending` against the payment\'s unrefunded rest), then settled: `succeeded`, `pending` until the provider settles it or answers (asked again with the refund\'s id as key), or `failed` when refused (the amount given back, with `invoice.updated`). A manual payment\'s refund is recorded as money returned outside. A paid invoice with something due again is `open`. Writes `invoice.payment_refunded`.',
      request: { params: refundParams, body: jsonBody(S.RefundBody) },
      responses: { 201: jsonContent(S.Refund, 'The refund.') },
    }),
    async (c) => {
      const { id, payment_id } = c.req.valid('param');
      const refund = await refundPayment(c.get('ctx'), id, payment_id, c.req.valid('json'));
      return c.json(serializeRefund(refund), 201);
    },
  );
