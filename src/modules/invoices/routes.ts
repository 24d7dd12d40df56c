// Invoices, mounted under /api/workflow and /v1 alike.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { todayIn } from '../../lib/time';
import { recordPayment, sendInvoice, voidInvoice } from './actions';
import * as S from './schemas';
import { serializeInvoiceSummary } from './serialize';
import { createInvoice, deleteInvoice, getInvoice, invoiceObject, listInvoices, updateInvoice } from './service';

const tags = ['Invoices'];
const params = idParams('invoice');
const invoice = (description: string) => jsonContent(S.Invoice, description);
const ROUNDING = 'Line `amount = round(quantity × unit_amount)`, line `tax = round(amount × tax_rate / 100)`, both half away from zero; `subtotal = Σ amount`, `tax = Σ line tax`, `total = subtotal + tax`.';

export const invoiceRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices', operationId: 'listInvoices', tags, access: 'user', role: 'viewer',
      summary: 'List invoices',
      description: 'Newest first, without line items. `status=overdue` lists open invoices past their due date.',
      request: { query: S.InvoiceQuery },
      responses: { 200: jsonContent(S.InvoicePage, 'A page of invoices.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listInvoices(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'invoice') });
      const today = todayIn(c.get('ctx').timeZone);
      return c.json(toPage(rows, query.limit, (row) => serializeInvoiceSummary(row, today)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices', operationId: 'createInvoice', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Create a draft invoice',
      description: `1 to 100 line items. ${ROUNDING} \`number\` defaults to the next INV-000001 for you; a number you already use is 409 \`invoice_number_taken\`. \`client_id\`/\`project_id\` that are not yours are 422.`,
      request: { body: jsonBody(S.CreateInvoiceBody) },
      responses: { 201: invoice('The new draft.') },
    }),
    async (c) => {
      return c.json(invoiceObject(c.get('ctx'), await createInvoice(c.get('ctx'), c.req.valid('json'))), 201);
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
      return c.json(invoiceObject(c.get('ctx'), await getInvoice(c.get('ctx'), c.req.valid('param').id)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/invoices/{id}', operationId: 'updateInvoice', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Update a draft',
      description: 'Drafts only (409 `invalid_state` otherwise). `line_items`, when sent, replaces them all and the totals are recomputed.',
      request: { params, body: jsonBody(S.UpdateInvoiceBody) },
      responses: { 200: invoice('The updated draft.') },
    }),
    async (c) => {
      return c.json(invoiceObject(c.get('ctx'), await updateInvoice(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/invoices/{id}', operationId: 'deleteInvoice', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Delete a draft',
      description: 'Drafts only; an issued invoice is voided instead.',
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
      method: 'post', path: '/invoices/{id}/send', operationId: 'sendInvoice', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Send a draft (draft → open)',
      description: 'An invoice whose total is zero has nothing to collect and becomes `paid` at once.',
      request: { params },
      responses: { 200: invoice('The open invoice.') },
    }),
    async (c) => {
      return c.json(invoiceObject(c.get('ctx'), await sendInvoice(c.get('ctx'), c.req.valid('param').id)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/payments', operationId: 'recordInvoicePayment', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Record a payment',
      description: 'Open invoices only. `amount` is at most `amount_due` (422 otherwise); when nothing is left due the invoice becomes `paid`. Send an `Idempotency-Key` so a retried request cannot record the payment twice.',
      request: { params, body: jsonBody(S.PaymentBody) },
      responses: { 200: invoice('The invoice after the payment.') },
    }),
    async (c) => {
      return c.json(invoiceObject(c.get('ctx'), await recordPayment(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'))), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/void', operationId: 'voidInvoice', tags, access: 'user', role: 'admin', errors: [409],
      summary: 'Void an open invoice',
      description: 'Only while nothing has been paid (409 `invalid_state` otherwise).',
      request: { params },
      responses: { 200: invoice('The void invoice.') },
    }),
    async (c) => {
      return c.json(invoiceObject(c.get('ctx'), await voidInvoice(c.get('ctx'), c.req.valid('param').id)), 200);
    },
  );
