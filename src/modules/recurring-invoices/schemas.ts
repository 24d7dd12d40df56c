import { z } from '@hono/zod-openapi';
import { currencySchema, dateSchema, idSchema, listQuery, longText, pageOf, timestampSchema } from '../../lib/schemas';
import { Discount, DocumentLine, documentFields, LineItemInput, MAX_LINE_ITEMS, TaxBreakdownEntry } from '../invoices/schemas';
import { taxRoundingField } from '../documents/schemas';
import { timeZoneSchema } from '../workspaces/validation';

const Status = z.enum(['active', 'paused', 'completed', 'canceled']);
const IntervalSchema = z.enum(['week', 'month', 'year']);
const timeZone = timeZoneSchema;

const fields = {
  project_id: idSchema('project').nullish(),
  currency: currencySchema.optional().openapi({ description: 'Defaults to the client\'s currency.' }),
  line_items: z.array(LineItemInput).min(1).max(MAX_LINE_ITEMS),
  notes: longText(5000).nullish(),
  due_in_days: z.number().int().min(0).max(365).openapi({ description: '0..365, default 30: each invoice is due this many days after its issue date.' }),
  end_date: dateSchema.nullish().openapi({ description: 'No invoice is issued after this date; the schedule then completes.' }),
  max_occurrences: z.number().int().min(1).max(1000).nullish().openapi({ description: 'The schedule completes after this many invoices.' }),
  auto_send: z.boolean().openapi({ description: 'Send (and email) each invoice as it is issued; otherwise it is issued as a draft. Default false.' }),
  // Passed on to every invoice it issues, as the invoice fields of the same names.
  ...documentFields,
};

export const CreateRecurringBody = z
  .strictObject({
    client_id: idSchema('client'),
    ...fields,
    due_in_days: fields.due_in_days.default(30),
    auto_send: fields.auto_send.default(false),
    interval: IntervalSchema,
    interval_count: z.number().int().min(1).max(12).default(1).openapi({ description: 'Every `interval_count` weeks, months or years.' }),
    start_date: dateSchema.openapi({ description: 'The first issue date: today or later in `time_zone`.' }),
    time_zone: timeZone.optional().openapi({ description: 'IANA time zone in which issue dates come; defaults to the workspace\'s.' }),
  })
  .refine((v) => !v.end_date || v.end_date >= v.start_date, { message: 'end_date must not be before start_date.', path: ['end_date'] })
  .openapi('CreateRecurringInvoice');

export const UpdateRecurringBody = z
  .strictObject({
    ...fields,
    project_id: fields.project_id,
    currency: fields.currency,
    line_items: fields.line_items.optional(),
    due_in_days: fields.due_in_days.optional(),
    auto_send: fields.auto_send.optional(),
  })
  .openapi('UpdateRecurringInvoice');

export const RecurringInvoice = z
  .object({
    id: idSchema('recurringInvoice'),
    status: Status,
    client_id: z.string(),
    project_id: z.string().nullable(),
    currency: z.string(),
    line_items: z.array(DocumentLine).openapi({ description: 'The lines each invoice gets, their tax resolved when the template is written.' }),
    subtotal: z.number().int(),
    discount: Discount.nullable(),
    discount_total: z.number().int(),
    tax: z.number().int(),
    total: z.number().int(),
    tax_rounding: taxRoundingField('The workspace\'s `tax_rounding` when the recurring invoice was created; every invoice it issues rounds this way.'),
    tax_breakdown: z.array(TaxBreakdownEntry).openapi({ description: 'What each issued invoice\'s breakdown will be.' }),
    tax_exemption_reason: z.string().nullable(),
    tax_exemption_code: z.string().nullable(),
    buyer_reference: z.string().nullable().openapi({ description: 'Each invoice\'s `buyer_reference`; null: the client\'s when the invoice is issued.' }),
    purchase_order: z.string().nullable(),
    notes: z.string().nullable(),
    due_in_days: z.number().int(),
    interval: IntervalSchema,
    interval_count: z.number().int(),
    start_date: z.string(),
    end_date: z.string().nullable(),
    max_occurrences: z.number().int().nullable(),
    auto_send: z.boolean(),
    time_zone: z.string(),
    next_issue_date: z.string().nullable().openapi({ description: 'When the next invoice is issued; null once completed or canceled.' }),
    upcoming: z.array(z.string()).openapi({ description: 'The next issue dates, at most 3; fewer near the end, [] once completed or canceled.' }),
    invoices_created: z.number().int(),
    last_invoice_id: z.string().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('RecurringInvoice');

export const RecurringPage = pageOf(RecurringInvoice);

export const RecurringQuery = listQuery.extend({ status: Status.optional(), client_id: idSchema('client').optional() });

export type CreateRecurringInput = z.infer<typeof CreateRecurringBody>;
export type UpdateRecurringInput = z.infer<typeof UpdateRecurringBody>;
