// Reviewing inbound documents under /v1 (§21 "Review", "Reading"): correct what was read, accept it as an expense,
// reject it, and read a received e-invoice as a page.
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { pageResponse } from '../invoices/render/respond';
import { acceptInboundDocument } from './accept';
import { correctInboundDocument, rejectInboundDocument } from './review';
import * as S from './schemas';
import { serializeInboundDocument } from './serialize';

const tags = ['Inbound documents'];
const params = idParams('inboundDocument');
const document = (description: string) => jsonContent(S.InboundDocument, description);

export const inboundReviewRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'patch', path: '/inbound-documents/{id}', operationId: 'updateInboundDocument', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Correct what was read',
      description: 'The named fields of `extracted` replace what was read, while `needs_review` (else 409).',
      request: { params, body: jsonBody(S.UpdateInboundDocumentBody) },
      responses: { 200: document('The document.') },
    }),
    async (c) => c.json(serializeInboundDocument(await correctInboundDocument(c.get('ctx'), c.req.valid('param').id, c.req.valid('json').extracted)), 200),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/inbound-documents/{id}/accept', operationId: 'acceptInboundDocument', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Book it as an expense',
      description: 'An expense of the `total`, `currency` and issue date, with the supplier, reference, net and tax. 409: not `needs_review`, a duplicate (`conflict`), a credit note, or amounts missing.',
      request: { params, body: jsonBody(S.AcceptInboundDocumentBody) },
      responses: { 200: document('Accepted, with `expense_id`.') },
    }),
    async (c) => c.json(serializeInboundDocument(await acceptInboundDocument(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/inbound-documents/{id}/reject', operationId: 'rejectInboundDocument', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Reject it',
      request: { params, body: jsonBody(S.RejectInboundDocumentBody) },
      responses: { 200: document('Rejected.') },
    }),
    async (c) => c.json(serializeInboundDocument(await rejectInboundDocument(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/inbound-documents/{id}/view', operationId: 'viewInboundDocument', tags, access: 'user', role: 'viewer', errors: [409],
      summary: 'Read a received e-invoice',
      description: 'As a page in the workspace\'s language, with its EN 16931 check. 409 for a document that is no e-invoice.',
      request: { params },
      responses: { 200: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } } },
    }),
    async (c) => {
      const { receivedPage } = await import('./view');
      const { doc, extra } = await receivedPage(c.get('ctx'), c.req.valid('param').id);
      return pageResponse(c, doc, { countView: false, extra });
    },
  );
