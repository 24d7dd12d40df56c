// Transfers abroad under /v1/remit.
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import * as S from './schemas';
import { cancelTransfer, createTransfer, getTransfer, listTransfers, serializeTransfer } from './service';

const tags = ['Transfers'];
const params = idParams('transfer');

export const transferRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'post', path: '/remit/transfer', operationId: 'createTransfer', tags, access: 'user', role: 'admin', idempotency: 'required', errors: [503],
      summary: 'Send money abroad',
      description: [
        'Requires `Idempotency-Key`: the same key and body return the same transfer (`Idempotent-Replayed: true`).',
        'Quoted from the cached exchange rates; none cached yet, or rates the provider published more than 36 hours ago, are a 503 `rates_unavailable` and no money moves. A currency the rates do not contain is a 422 naming `source_currency` or `target_currency`.',
        '`fee = ceil(source_amount × 0.5 %) + the source-currency equivalent of USD 1.00 (rounded up)`; `target_amount = (source_amount − fee) × rate`, rounded down.',
        'The transfer is queued and moves `pending → processing → completed | failed`.',
        '**Sandbox:** every payout completes, except that a recipient name containing `FAIL` is rejected with a `failure_reason`, like a test card.',
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
      responses: { 200: jsonContent(S.TransferPage, 'A page of transfers, newest first.') },
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
