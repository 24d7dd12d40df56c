// Quotes (§18), mounted under /api/workflow and /v1 alike.
import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import type { AppEnv } from '../../env';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { linkOrigin } from '../invoices/links';
import { pdfResponse } from '../invoices/render/respond';
import { Invoice, SendInvoiceBody } from '../invoices/schemas';
import { invoiceObject } from '../invoices/service';
import { invoiceLinks } from '../invoices/links';
import { acceptQuote, cancelQuote, convertQuote, declineQuote, sendQuote } from './actions';
import { quoteDocumentOf } from './document';
import { quoteLinks, quoteReplay } from './links';
import * as S from './schemas';
import { type QuoteRow, serializeQuote, serializeQuoteSummary } from './serialize';
import { createQuote, deleteQuote, getQuote, getQuoteWithParties, listQuotes, reviseQuote, updateQuote } from './service';

const tags = ['Quotes'];
const params = idParams('quote');
const quote = (description: string) => jsonContent(S.Quote, description);

async function withLinks(c: Context<AppEnv>, row: QuoteRow) {
  return { ...serializeQuote(row), ...(await quoteLinks(c.env, linkOrigin(c.env, c.req.url), row)) };
}

/** A state change of one quote, `POST /quotes/{id}/<action>`: a member's, replayable, 409 when the state forbids it. */
const quoteAction = <A extends string, R extends Pick<RouteConfig, 'request' | 'responses'> & { operationId: string; summary: string; description: string }>(action: A, { operationId, ...config }: R) =>
  defineRoute({ method: 'post', path: `/quotes/{id}/${action}` as const, operationId, replay: quoteReplay, tags, access: 'user', role: 'member', errors: [409], ...config });

const LINES = 'Lines, discount and taxes as on invoices (see createInvoice).';

export const quoteRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/quotes', operationId: 'listQuotes', tags, access: 'user', role: 'viewer',
      summary: 'List quotes',
      description: 'Without line items.',
      request: { query: S.QuoteQuery },
      responses: { 200: jsonContent(S.QuotePage, 'A page of quotes.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listQuotes(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'quote') });
      const origin = linkOrigin(c.env, c.req.url);
      const page = toPage(rows, query.limit, (row) => row);
      const data = await Promise.all(page.data.map(async (row) => ({ ...serializeQuoteSummary(row), ...(await quoteLinks(c.env, origin, row)) })));
      return c.json({ ...page, data }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/quotes', operationId: 'createQuote', replay: quoteReplay, tags, access: 'user', role: 'member', errors: [409],
      summary: 'Create a draft quote',
      description: LINES,
      request: { body: jsonBody(S.CreateQuoteBody) },
      responses: { 201: quote('The new draft.') },
    }),
    async (c) => c.json(await withLinks(c, await createQuote(c.get('ctx'), c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/quotes/{id}', operationId: 'getQuote', tags, access: 'user', role: 'viewer',
      summary: 'Get a quote with its line items',
      request: { params },
      responses: { 200: quote('The quote.') },
    }),
    async (c) => c.json(await withLinks(c, await getQuote(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/quotes/{id}', operationId: 'updateQuote', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Update a draft quote',
      description: `Drafts only (409 \`invalid_state\` otherwise). \`line_items\`, when sent, replaces them all. ${LINES}`,
      request: { params, body: jsonBody(S.UpdateQuoteBody) },
      responses: { 200: quote('The updated draft.') },
    }),
    async (c) => c.json(await withLinks(c, await updateQuote(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/quotes/{id}', operationId: 'deleteQuote', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Delete a draft quote',
      description: 'Drafts only; a sent quote is canceled instead.',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteQuote(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/quotes/{id}/send', operationId: 'sendQuote', replay: quoteReplay, tags, access: 'user', role: 'member', errors: [409],
      summary: 'Send a draft quote (draft → open)',
      description: 'Finalizes the quote as sending does an invoice, and it gets its `hosted_url`, where the client accepts or declines it; an email with the link is queued. A quote whose `valid_until` has passed in the workspace\'s time zone expires on the next cron run.',
      request: { params, body: { required: false, content: { 'application/json': { schema: SendInvoiceBody } } } },
      responses: { 200: quote('The quote as it is now.') },
    }),
    async (c) => c.json(await withLinks(c, await sendQuote(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'), linkOrigin(c.env, c.req.url))), 200),
  )
  .openapi(
    quoteAction('accept', {
      operationId: 'acceptQuote',
      summary: 'Record the client\'s acceptance',
      description: 'Open quotes only, once (409 `invalid_state` otherwise): for an acceptance that reached you by email, phone or in person. Then does what the quote\'s `on_accept` says.',
      request: { params, body: jsonBody(S.AcceptQuoteBody) },
      responses: { 200: quote('The quote as it is now.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      return c.json(await withLinks(c, await acceptQuote(ctx, c.req.valid('param').id, c.req.valid('json'), linkOrigin(c.env, c.req.url))), 200);
    },
  )
  .openapi(
    quoteAction('decline', {
      operationId: 'declineQuote',
      summary: 'Record the client\'s refusal',
      description: 'Open quotes only, once (409 `invalid_state` otherwise).',
      request: { params, body: jsonBody(S.DeclineQuoteBody) },
      responses: { 200: quote('The quote as it is now.') },
    }),
    async (c) => c.json(await withLinks(c, await declineQuote(c.get('ctx'), c.req.valid('param').id, c.req.valid('json').reason)), 200),
  )
  .openapi(
    quoteAction('cancel', {
      operationId: 'cancelQuote',
      summary: 'Cancel a draft or open quote',
      description: 'Its page then says it was canceled and offers no form.',
      request: { params },
      responses: { 200: quote('The quote as it is now.') },
    }),
    async (c) => c.json(await withLinks(c, await cancelQuote(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    quoteAction('revise', {
      operationId: 'reviseQuote',
      summary: 'Revise a quote into a new draft',
      description: 'Open, declined or expired quotes: a new draft with the same client, lines and terms, its own number and `revision_of`, dated today and valid as long as the original was. An open original becomes `canceled` in the same step.',
      request: { params },
      responses: { 201: quote('The new draft.') },
    }),
    async (c) => c.json(await withLinks(c, await reviseQuote(c.get('ctx'), c.req.valid('param').id)), 201),
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/quotes/{id}/convert', operationId: 'convertQuote', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Convert an accepted quote into a draft invoice',
      description: 'Accepted quotes only: a draft invoice with the quote\'s lines, discount and notes, `purchase_order` the client\'s PO and `quote_id`; the quote becomes `converted` with its `invoice_id`. A quote makes at most one invoice, even when converted twice at once: the second is 409 `invalid_state`.',
      request: { params },
      responses: { 201: jsonContent(Invoice, 'The new draft.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const { invoice } = await convertQuote(ctx, c.req.valid('param').id);
      return c.json({ ...invoiceObject(ctx, invoice), ...(await invoiceLinks(c.env, linkOrigin(c.env, c.req.url), invoice.row)) }, 201);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/quotes/{id}/pdf', operationId: 'getQuotePdf', tags, access: 'user', role: 'viewer',
      summary: 'The quote as a PDF',
      description: 'As the client gets it from `pdf_url`; a draft is marked DRAFT.',
      request: { params },
      responses: { 200: { description: 'The PDF.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } } },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      return pdfResponse(c, await quoteDocumentOf(ctx.env, await getQuoteWithParties(ctx, c.req.valid('param').id), linkOrigin(c.env, c.req.url)));
    },
  );
