// Invoices, mounted under /api/workflow and /v1 alike.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams, listQuery } from '../../lib/schemas';
import { todayIn } from '../../lib/time';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { listInvoiceEmails, serializeEmailDelivery } from '../emails/outbox';
import { recordPayment, sendInvoice, voidInvoice } from './actions';
import { printedDocument } from '../documents/render/printed';
import { documentById, invoiceValueOf } from './document-for';
import { eInvoiceProblems, eInvoiceXml, facturXCii, xmlResponse } from './einvoice';
import { invoiceTaxWarnings } from './tax-situation';
import { rotateShareLink } from './hosted-link';
import { invoiceLinks, linkOrigin } from './links';
import { pdfResponse, pageResponse } from './render/respond';
import { invoiceReplay } from './replay';
import * as S from './schemas';
import { type InvoiceWithLines, serializeInvoiceSummary } from './serialize';
import { createInvoice, deleteInvoice, getInvoice, getInvoiceWithParties, invoiceObject, listInvoices, updateInvoice } from './service';

const tags = ['Invoices'];
const params = idParams('invoice');
const invoice = (description: string) => jsonContent(S.Invoice, description);
/** The invoice as the API returns it, its links built on this request's origin (or PUBLIC_URL). */
async function withLinks(c: Context<AppEnv>, invoice: InvoiceWithLines) {
  return { ...invoiceObject(c.get('ctx'), invoice), ...(await invoiceLinks(c.env, linkOrigin(c.env, c.req.url), invoice.row)) };
}

// The rules of lines, discount and taxes are written once, under **Money** in the document's
// introduction (openapi/info.ts); the two operations that compute them point there.
const ROUNDING = 'Amounts are computed as **Money** in the introduction says, with the workspace\'s `tax_rounding`; a line or `discount` that breaks the rules of `TaxCategory` or `discount` is a 422 naming the field.';

export const invoiceRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices', operationId: 'listInvoices', tags, access: 'user', role: 'viewer',
      summary: 'List invoices',
      description: 'Without line items.',
      request: { query: S.InvoiceQuery },
      responses: { 200: jsonContent(S.InvoicePage, 'A page of invoices.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listInvoices(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'invoice') });
      const today = todayIn(c.get('ctx').timeZone);
      const origin = linkOrigin(c.env, c.req.url);
      const page = toPage(rows, query.limit, (row) => row);
      const data = await Promise.all(page.data.map(async (row) => ({ ...serializeInvoiceSummary(row, today), ...(await invoiceLinks(c.env, origin, row)) })));
      return c.json({ ...page, data }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices', operationId: 'createInvoice', replay: invoiceReplay, tags, access: 'user', role: 'member', errors: [409],
      // Its first D1 work is the batch that reads the client and workspace: the key's claim rides on it.
      idempotencyClaim: 'with-first-batch',
      summary: 'Create a draft invoice',
      description: `${ROUNDING} A \`number\` you already use is 409 \`invoice_number_taken\`. \`client_id\`/\`project_id\` that are not yours are 422.`,
      request: { body: jsonBody(S.CreateInvoiceBody) },
      responses: { 201: invoice('The new draft.') },
    }),
    async (c) => {
      return c.json(await withLinks(c, await createInvoice(c.get('ctx'), c.req.valid('json'))), 201);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}', operationId: 'getInvoice', tags, access: 'user', role: 'viewer',
      summary: 'Get an invoice with its line items',
      request: { params },
      responses: { 200: invoice('The invoice.') },
    }),
    async (c) => {
      return c.json(await withLinks(c, await getInvoice(c.get('ctx'), c.req.valid('param').id)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/invoices/{id}', operationId: 'updateInvoice', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Update a draft',
      description: `Drafts only (409 \`invalid_state\` otherwise). \`line_items\`, when sent, replaces them all; a change of lines, \`discount\` or exemption recomputes the totals as createInvoice does (kept lines keep their categories, the invoice its \`tax_rounding\`).`,
      request: { params, body: jsonBody(S.UpdateInvoiceBody) },
      responses: { 200: invoice('The updated draft.') },
    }),
    async (c) => {
      return c.json(await withLinks(c, await updateInvoice(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/invoices/{id}', operationId: 'deleteInvoice', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Delete a draft',
      description: 'Drafts only; an issued invoice is voided instead. Its time entries and expenses are released, and the quote it was converted from is `accepted` again with no `invoice_id`.',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteInvoice(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/send', operationId: 'sendInvoice', replay: invoiceReplay, tags, access: 'user', role: 'member', errors: [409],
      summary: 'Send a draft (draft → open)',
      description: 'Finalizes the invoice: `issuer`, `bill_to`, `locale` and `payment_instructions` are fixed on it; it gets its `hosted_url` and `pdf_url`; an email with the link is queued (see …/deliveries), so sending succeeds even while the email service is down. An invoice whose total is zero becomes `paid` at once.',
      request: { params, body: { required: false, content: { 'application/json': { schema: S.SendInvoiceBody } } } },
      responses: { 200: invoice('The invoice as it is now.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      return c.json(await withLinks(c, await sendInvoice(ctx, c.req.valid('param').id, c.req.valid('json'), linkOrigin(c.env, c.req.url))), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/payments', operationId: 'recordInvoicePayment', replay: invoiceReplay, tags, access: 'user', role: 'member', errors: [409],
      summary: 'Record a payment',
      description: 'Open invoices only; when nothing is left due the invoice becomes `paid`. Send an `Idempotency-Key` so a retry cannot record the payment twice.',
      request: { params, body: jsonBody(S.PaymentBody) },
      responses: { 200: invoice('The invoice as it is now.') },
    }),
    async (c) => {
      return c.json(await withLinks(c, await recordPayment(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/void', operationId: 'voidInvoice', replay: invoiceReplay, tags, access: 'user', role: 'admin', errors: [409],
      summary: 'Void an open invoice',
      description: 'Only while nothing has been paid (409 `invalid_state` otherwise).',
      request: { params },
      responses: { 200: invoice('The invoice as it is now.') },
    }),
    async (c) => {
      return c.json(await withLinks(c, await voidInvoice(c.get('ctx'), c.req.valid('param').id)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/share-link', operationId: 'rotateInvoiceShareLink', replay: invoiceReplay, tags, access: 'user', role: 'member', errors: [409],
      summary: 'Make a new hosted link',
      description: 'The invoice gets a new `hosted_url` (and `pdf_url`); the old page and its PDF answer 404 from now on. 409 on a draft, which has no link yet.',
      request: { params },
      responses: { 200: invoice('The invoice as it is now.') },
    }),
    async (c) => c.json(await withLinks(c, await rotateShareLink(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/deliveries', operationId: 'listInvoiceDeliveries', tags, access: 'user', role: 'viewer',
      summary: 'The emails of an invoice',
      description: 'Every email sent for the invoice (when it was sent, and reminders): `queued` while it waits or retries (after 1 min, 10 min, 1 h and 6 h), `sent`, or `failed` after the fifth attempt, with the last error.',
      request: { params, query: listQuery },
      responses: { 200: jsonContent(S.EmailDeliveryPage, 'A page of email deliveries.') },
    }),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const invoiceRow = await getInvoice(c.get('ctx'), c.req.valid('param').id);
      const rows = await listInvoiceEmails(c.get('ctx'), invoiceRow.row.id, limit, decodeCursor(cursor, 'emailDelivery'));
      return c.json(toPage(rows, limit, serializeEmailDelivery), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/pdf', operationId: 'getInvoicePdf', tags, access: 'user', role: 'viewer',
      summary: 'The invoice as a PDF',
      description: 'As the client gets it from `pdf_url`; a draft is marked DRAFT. A sent invoice ready in CII embeds its XML as `factur-x.xml` (see `einvoice_pdf`).',
      request: { params },
      responses: { 200: { description: 'The PDF.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } } },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const found = await getInvoiceWithParties(ctx, c.req.valid('param').id);
      const value = await invoiceValueOf(ctx, found, linkOrigin(c.env, c.req.url));
      return pdfResponse(c, printedDocument(value), facturXCii(value, found.workspace));
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/e-invoice', operationId: 'getInvoiceEInvoice', tags, access: 'user', role: 'viewer', errors: [409, 422],
      summary: 'The invoice as an EN 16931 e-invoice (XML)',
      description: `${S.EINVOICE_FORMATS_TEXT} A draft is 409 \`invalid_state\`. An invalid one is never exported: 422 \`einvoice_incomplete\` naming every field to fix. Nothing is sent over Peppol.`,
      request: { params, query: S.EInvoiceQuery },
      responses: { 200: { description: 'The XML, as `<number>.<format>.xml`.', content: { 'application/xml': { schema: { type: 'string' } } } } },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const found = await getInvoiceWithParties(ctx, c.req.valid('param').id);
      const { format } = c.req.valid('query');
      return xmlResponse(found.invoice.row.number, eInvoiceXml(await invoiceValueOf(ctx, found), format), format);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/e-invoice/check', operationId: 'checkInvoiceEInvoice', tags, access: 'user', role: 'viewer',
      summary: 'Whether the invoice can be an e-invoice',
      description: 'Drafts too: a draft is checked with the workspace and the client as they are now, so they can be fixed before sending; a sent invoice with what it snapshotted. Each problem names the field to fix.',
      request: { params, query: S.EInvoiceQuery },
      responses: { 200: jsonContent(S.EInvoiceCheck, 'The readiness and every problem.') },
    }),
    async (c) => {
      const { format } = c.req.valid('query');
      const ctx = c.get('ctx');
      const found = await getInvoiceWithParties(ctx, c.req.valid('param').id);
      const problems = eInvoiceProblems(await invoiceValueOf(ctx, found), format);
      return c.json({ format, ready: problems.length === 0, problems, warnings: invoiceTaxWarnings(found) }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/preview', operationId: 'previewInvoice', tags, access: 'user', role: 'viewer',
      summary: 'The hosted page, as the client sees it',
      description: 'The same page as `hosted_url` (a draft too, marked DRAFT), without counting a view even when opened in a browser.',
      request: { params },
      responses: { 200: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } } },
    }),
    async (c) => {
      return pageResponse(c, await documentById(c.get('ctx'), c.req.valid('param').id, linkOrigin(c.env, c.req.url)), { countView: false });
    },
  );
