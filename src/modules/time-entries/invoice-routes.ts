// POST …/invoices/from-time: a draft invoice from unbilled time, mounted beside the invoices on
// both listings.
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { invoiceLinks, linkOrigin } from '../invoices/links';
import { invoiceReplay } from '../invoices/replay';
import { Invoice } from '../invoices/schemas';
import { invoiceObject } from '../invoices/service';
import { createInvoiceFromTime } from './billing';
import { InvoiceFromTimeBody } from './schemas';

export const invoiceFromTimeRoutes = createRouter().openapi(
  defineRoute({
    method: 'post', path: '/invoices/from-time', operationId: 'createInvoiceFromTime', replay: invoiceReplay, tags: ['Invoices'], access: 'user', role: 'member', errors: [409, 503],
    summary: 'Create a draft invoice from unbilled time',
    description: [
      'A draft in the client\'s currency billing its billable, stopped, unbilled time entries with `spent_date` in `from`..`to`: a line per group and rate, `quantity` = the group\'s `billable_seconds` ÷ 3600 rounded half up to 3 decimals, `unit_amount` = the hourly rate (another currency\'s converted at the cached rates, half away from zero, and named in the line), no tax.',
      'Each entry billed gets the `invoice_id` in the batch that writes the invoice, locked until the draft is deleted or the invoice voided. Two requests over the same time bill it once: the second is a 422 if nothing is left, 409 `conflict` if the time kept changing under it.',
      'An expense line (`include_expenses`): unit `C62`, quantity 1, converted likewise with the original amount named; stamped and locked like the entries.',
      '422: nothing to bill (`details` say so), an entry without a rate (naming its project), or more than 100 lines.',
    ].join('\n\n'),
    request: { body: jsonBody(InvoiceFromTimeBody) },
    responses: { 201: jsonContent(Invoice, 'The new draft.') },
  }),
  async (c) => {
    const invoice = await createInvoiceFromTime(c.get('ctx'), c.req.valid('json'));
    return c.json({ ...invoiceObject(c.get('ctx'), invoice), ...(await invoiceLinks(c.env, linkOrigin(c.env, c.req.url), invoice.row)) }, 201);
  },
);
