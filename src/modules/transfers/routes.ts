// Transfers abroad under /v1/remit.
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import * as S from './schemas';
import { providerSettingRoutes } from '../payments/provider-setting-routes';
import { connectPayoutProvider, disconnectPayoutProvider, getPayoutProvider, serializePayoutProvider } from './payout-connection';
import { cancelTransfer, createTransfer, getTransfer, listTransfers, serializeTransfer } from './service';
import { createTransferQuote, serializeTransferQuote } from './transfer-quotes';

const tags = ['Transfers'];
const params = idParams('transfer');

export const transferRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'post', path: '/remit/quotes', operationId: 'createTransferQuote', tags, access: 'user', role: 'admin', errors: [503],
      summary: 'Price a transfer before sending it',
      description: 'The fee, rate and `target_amount` a transfer of this amount gets, held for 30 minutes; nothing moves. One transfer with `quote_id` gets exactly these terms.',
      request: { body: jsonBody(S.CreateTransferQuoteBody) },
      responses: { 201: jsonContent(S.TransferQuote, 'The quote.') },
    }),
    async (c) => c.json(serializeTransferQuote(await createTransferQuote(c.get('ctx'), c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/remit/transfer', operationId: 'createTransfer', tags, access: 'user', role: 'admin', idempotency: 'required', errors: [503],
      summary: 'Send money abroad',
      description: [
        'A `quote_id` that expired or was used is a 409 `conflict`.',
        'Without one, the transfer is quoted from the cached rates: none cached, or published more than 36 hours ago, is a 503 `rates_unavailable` and no money moves; a currency they lack is a 422 naming `source_currency` or `target_currency`.',
        'The transfer is queued, moves `pending → processing → completed | failed` and is paid out by the workspace\'s payout provider (`PUT /api/workspace/payout-provider`); in production, none is a 409 `payouts_not_configured`. Reads never show the whole account number.',
        '**Sandbox** (development only): every payout completes, except that a recipient name containing `FAIL` is rejected with a `failure_reason`, like a test card.',
      ].join(' '),
      request: { body: jsonBody(S.CreateTransferBody) },
      responses: { 202: jsonContent(S.Transfer, 'Accepted and queued.') },
    }),
    async (c) => {
      const row = await createTransfer(c.get('ctx'), c.req.valid('json'));
      return c.json(serializeTransfer(row), 202);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/remit/transfers', operationId: 'listTransfers', tags, access: 'user', role: 'viewer',
      summary: 'List transfers',
      request: { query: S.TransferQuery },
      responses: { 200: jsonContent(S.TransferPage, 'A page of transfers.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listTransfers(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'transfer') });
      return c.json(toPage(rows, query.limit, serializeTransfer), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/remit/transfers/{id}', operationId: 'getTransfer', tags, access: 'user', role: 'viewer',
      summary: 'Get a transfer',
      request: { params },
      responses: { 200: jsonContent(S.Transfer, 'The transfer.') },
    }),
    async (c) => c.json(serializeTransfer(await getTransfer(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/remit/transfers/{id}/cancel', operationId: 'cancelTransfer', tags, access: 'user', role: 'admin', errors: [409],
      summary: 'Cancel a pending transfer',
      description: 'Pending only; 409 `invalid_state` once processing has started.',
      request: { params },
      responses: { 200: jsonContent(S.Transfer, 'The cancelled transfer.') },
    }),
    async (c) => c.json(serializeTransfer(await cancelTransfer(c.get('ctx'), c.req.valid('param').id)), 200),
  );

export const payoutProviderRoutes = providerSettingRoutes({
  path: '/workspace/payout-provider', noun: 'PayoutProvider', tags, body: S.ConnectPayoutProviderBody, reply: S.PayoutProvider, serialize: serializePayoutProvider,
  connect: {
    run: connectPayoutProvider,
    summary: 'Connect a payout provider',
    description: 'Who pays out the workspace\'s transfers: `wise`, or `sandbox`, which needs no account, moves no money and exists only where the worker\'s `PAYMENTS_SANDBOX` is `true` (never in production: 422 there). Connecting again replaces the settings; transfers already sent keep their provider.',
  },
  get: { run: getPayoutProvider, summary: 'The connected payout provider', description: 'Never the token. `connected: false` when none is.' },
  disconnect: {
    run: disconnectPayoutProvider,
    summary: 'Disconnect the payout provider',
    description: 'New transfers go to the sandbox where it exists, and are refused in production. A transfer that Wise already holds still ends by Wise\'s webhook.',
  },
});
