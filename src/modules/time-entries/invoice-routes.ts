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
      'A draft in the client\'s currency of its billable, stopped, unbilled time with `spent_date` in `from`..`to`: a line per group and rate, `quantity` = `billable_seconds` ÷ 3600 half up to 3 decimals, `unit_amount` = the hourly rate (another currency\'s converted at the cached rates, half away from zero, and named), taxed by `tax_rate`/`tax_category`, else as `TaxCategory` says.',
      'Each entry billed gets the `invoice_id` in the invoice\'s batch, locked until the draft is deleted or the invoice voided. Two requests over the same time bill it once: the second is a 422 if nothing is left, 409 `conflict` if the time kept changing.',
      'An expense line (`include_expenses`): unit `C62`, quantity 1, converted likewise, the original amount named; stamped and locked alike.',
      '422: nothing to bill, an entry without a rate (naming its project), or more than 100 lines.',
    ].join('\n\n'),
    request: { body: jsonBody(InvoiceFromTimeBody) },
    responses: { 201: jsonContent(Invoice, 'The new draft.') },
  }),
  async (c) => {
    const invoice = await createInvoiceFromTime(c.get('ctx'), c.req.valid('json'));
    return c.json({ ...invoiceObject(c.get('ctx'), invoice), ...(await invoiceLinks(c.env, linkOrigin(c.env, c.req.url), invoice.row)) }, 201);
  },
);
