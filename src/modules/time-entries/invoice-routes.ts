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
      'A draft in the client\'s currency billing its billable, stopped, not yet invoiced time entries with `spent_date` in `from`..`to` (all of the client\'s projects, or `project_ids`): one line per group (`group_by`) and rate, `quantity` = the group\'s billable seconds (each entry rounded by its project\'s `time_rounding`) ÷ 3600 rounded half up to 3 decimals, `unit_amount` = the hourly rate (a rate in another currency converted at the cached rates, half away from zero, and named in the description), no tax.',
      'Each entry billed gets the invoice\'s `invoice_id` in the same batch that writes the invoice, and is locked until the draft is deleted or the invoice voided, which releases it. Two requests over the same time bill it once: the second answers 422 if nothing is left, or 409 `conflict` if the time kept changing under it.',
      'With `include_expenses` (the default), each billable, not yet invoiced expense of those projects with `incurred_on` in the period is one more line (unit `C62`, quantity 1), converted into the invoice\'s currency at the cached rates, half away from zero, with the original amount named in the description; it is stamped and locked like the entries.',
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
