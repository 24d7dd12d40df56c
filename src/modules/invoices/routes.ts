// Invoices, mounted under /api/workflow and /v1 alike.
import { createDb } from '../../lib/db';
import { defineRoute, jsonBody, jsonContent, noContent } from '../../lib/openapi';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { recordPayment, sendInvoice, voidInvoice } from './actions';
import * as S from './schemas';
import { serializeInvoice, serializeInvoiceSummary } from './serialize';
import { createInvoice, deleteInvoice, getInvoice, listInvoices, updateInvoice } from './service';

const tags = ['Invoices'];
const params = idParams('invoice');
const invoice = (description: string) => jsonContent(S.Invoice, description);
const ROUNDING = 'Line `amount = round(quantity × unit_amount)`, line `tax = round(amount × tax_rate / 100)`, both half away from zero; `subtotal = Σ amount`, `tax = Σ line tax`, `total = subtotal + tax`.';

export const invoiceRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices', tags, access: 'user',
      summary: 'List invoices',
      description: 'Newest first, without line items. `status=overdue` lists open invoices past their due date.',
      request: { query: S.InvoiceQuery },
      responses: { 200: jsonContent(S.InvoicePage, 'A page of invoices.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listInvoices(createDb(c.env.DB), c.get('caller').userId, { ...query, beforeId: decodeCursor(query.cursor, 'invoice') });
      return c.json(toPage(rows, query.limit, serializeInvoiceSummary), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices', tags, access: 'user', errors: [409],
      summary: 'Create a draft invoice',
      description: `1 to 100 line items. ${ROUNDING} \`number\` defaults to the next INV-000001 for you; a number you already use is 409 \`invoice_number_taken\`. \`client_id\`/\`project_id\` that are not yours are 422.`,
      request: { body: jsonBody(S.CreateInvoiceBody) },
      responses: { 201: invoice('The new draft.') },
    }),
    async (c) => {
      const { row, lines } = await createInvoice(createDb(c.env.DB), c.env.DB, c.get('caller').userId, c.req.valid('json'));
      return c.json(serializeInvoice(row, lines), 201);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}', tags, access: 'user',
      summary: 'Get an invoice with its line items',
      request: { params },
      responses: { 200: invoice('The invoice.') },
    }),
    async (c) => {
      const { row, lines } = await getInvoice(createDb(c.env.DB), c.get('caller').userId, c.req.valid('param').id);
      return c.json(serializeInvoice(row, lines), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/invoices/{id}', tags, access: 'user', errors: [409],
      summary: 'Update a draft',
      description: 'Drafts only (409 `invalid_state` otherwise). `line_items`, when sent, replaces them all and the totals are recomputed.',
      request: { params, body: jsonBody(S.UpdateInvoiceBody) },
      responses: { 200: invoice('The updated draft.') },
    }),
    async (c) => {
      const { row, lines } = await updateInvoice(createDb(c.env.DB), c.env.DB, c.get('caller').userId, c.req.valid('param').id, c.req.valid('json'));
      return c.json(serializeInvoice(row, lines), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/invoices/{id}', tags, access: 'user', errors: [409],
      summary: 'Delete a draft',
      description: 'Drafts only; an issued invoice is voided instead.',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteInvoice(createDb(c.env.DB), c.get('caller').userId, c.req.valid('param').id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/send', tags, access: 'user', errors: [409],
      summary: 'Send a draft (draft → open)',
      description: 'An invoice whose total is zero has nothing to collect and becomes `paid` at once.',
      request: { params },
      responses: { 200: invoice('The open invoice.') },
    }),
    async (c) => {
      const { row, lines } = await sendInvoice(createDb(c.env.DB), c.env.DB, c.get('caller').userId, c.req.valid('param').id);
      return c.json(serializeInvoice(row, lines), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/payments', tags, access: 'user', errors: [409],
      summary: 'Record a payment',
      description: 'Open invoices only. `amount` is at most `amount_due` (422 otherwise); when nothing is left due the invoice becomes `paid`. Send an `Idempotency-Key` so a retried request cannot record the payment twice.',
      request: { params, body: jsonBody(S.PaymentBody) },
      responses: { 200: invoice('The invoice after the payment.') },
    }),
    async (c) => {
      const { row, lines } = await recordPayment(createDb(c.env.DB), c.env.DB, c.get('caller').userId, c.req.valid('param').id, c.req.valid('json'));
      return c.json(serializeInvoice(row, lines), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/void', tags, access: 'user', errors: [409],
      summary: 'Void an open invoice',
      description: 'Only while nothing has been paid (409 `invalid_state` otherwise).',
      request: { params },
      responses: { 200: invoice('The void invoice.') },
    }),
    async (c) => {
      const { row, lines } = await voidInvoice(createDb(c.env.DB), c.env.DB, c.get('caller').userId, c.req.valid('param').id);
      return c.json(serializeInvoice(row, lines), 200);
    },
  );
