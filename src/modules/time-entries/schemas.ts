import { z } from '@hono/zod-openapi';
import { dateSchema, idSchema, listQuery, longText, minorAmount, pageOf, queryBoolean, text, timestampSchema } from '../../lib/schemas';
import { TaxCategory, taxRate } from '../invoices/schemas';
import { MAX_ENTRY_SECONDS, MIN_ENTRY_SECONDS, ROUNDING_INCREMENTS, ROUNDING_MODES, type RoundingIncrement } from './rounding';

/** An instant as RFC 3339 with an offset; stored and answered in UTC with milliseconds. */
const instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString())
  .openapi({ format: 'date-time', example: '2026-11-22T08:00:00.000Z' });

const duration = z
  .number()
  .int()
  .min(MIN_ENTRY_SECONDS)
  .max(MAX_ENTRY_SECONDS)
  .openapi({ description: 'Whole seconds worked, 1 .. 86400 (24 h).', example: 5400 });

export const TimeRoundingSchema = z
  .strictObject({
    increment_minutes: z
      .number()
      .int()
      .refine((n): n is RoundingIncrement => (ROUNDING_INCREMENTS as readonly number[]).includes(n), { message: 'Use 1, 5, 6, 10, 15, 30 or 60.' })
      .openapi({ enum: [...ROUNDING_INCREMENTS], description: 'The billing increment: 1, 5, 6, 10, 15, 30 or 60 minutes.' }),
    mode: z.enum(ROUNDING_MODES).openapi({ description: '`up`, `down`, or `nearest` (exactly halfway rounds up).' }),
  })
  .nullable()
  .openapi('TimeRounding', {
    description: 'Each of the project\'s entries bills its duration rounded to the increment (`billable_seconds`; `duration_seconds` stays as recorded); null (the default) bills to the second.',
  });

const entryFields = {
  project_id: idSchema('project').openapi({ description: 'One of your projects (422 otherwise), whose currency and, by default, hourly rate the entry takes.' }),
  spent_date: dateSchema.optional().openapi({ description: 'Defaults to the day it started (or today) in the workspace\'s time zone.' }),
  duration_seconds: duration.optional(),
  started_at: instant.optional().openapi({ description: 'With `stopped_at`: the span worked. Alone: a timer that started then (not in the future).' }),
  stopped_at: instant.optional(),
  task: text(200).nullish().openapi({ description: 'What was done (an invoice can group its lines by it).' }),
  notes: longText(5000).nullish(),
  billable: z.boolean().optional().openapi({ description: 'Default true. A non-billable entry bills 0 seconds.' }),
  rate: minorAmount('Minor units of the project\'s currency per hour. Defaults to the project\'s hourly_rate.').nullish(),
};

export const CreateTimeEntryBody = z
  .strictObject({
    ...entryFields,
    user_id: idSchema('user').optional().openapi({ description: 'Whose time it is; another member\'s needs the `admin` role (403). Default the caller.' }),
  })
  .openapi('CreateTimeEntry');

export const UpdateTimeEntryBody = z
  .strictObject({ ...entryFields, project_id: entryFields.project_id.optional() })
  .openapi('UpdateTimeEntry');

export const StopTimeEntryBody = z
  .strictObject({ stopped_at: instant.optional().openapi({ description: 'When it stopped; default now. 1 s to 24 h after `started_at`.' }) })
  .openapi('StopTimeEntry');

export const TimeEntry = z
  .object({
    id: idSchema('timeEntry'),
    user: z.object({ id: z.string(), name: z.string().nullable() }),
    project_id: z.string(),
    client_id: z.string().nullable().openapi({ description: 'The project\'s client, if it has one.' }),
    task: z.string().nullable(),
    notes: z.string().nullable(),
    spent_date: z.string(),
    started_at: z.string().nullable(),
    stopped_at: z.string().nullable(),
    duration_seconds: z.number().int().nullable().openapi({ description: 'Whole seconds; null while the timer runs.' }),
    billable_seconds: z.number().int().nullable().openapi({
      description: 'duration_seconds rounded by the project\'s `time_rounding` (per entry); 0 when not billable; null while running.',
    }),
    billable: z.boolean(),
    rate: z.number().int().nullable().openapi({ description: 'Minor units of `currency` per hour; null when neither it nor its project had one.' }),
    currency: z.string(),
    is_running: z.boolean(),
    invoice_id: z.string().nullable().openapi({ description: 'The invoice billing it; while set, the entry cannot be changed or deleted (409).' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('TimeEntry');

export const TimeEntryQuery = listQuery
  .extend({
    project_id: idSchema('project').optional(),
    client_id: idSchema('client').optional(),
    user_id: idSchema('user').optional(),
    from: dateSchema.optional().openapi({ description: 'spent_date on or after.' }),
    to: dateSchema.optional().openapi({ description: 'spent_date on or before.' }),
    billable: queryBoolean.optional(),
    invoiced: queryBoolean.optional().openapi({ description: 'true: billed by an invoice; false: not yet.' }),
    running: queryBoolean.optional().openapi({ description: 'true: running timers only; false: stopped entries only.' }),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`.', path: ['from'] });

export const TimeEntryPage = pageOf(TimeEntry);

export const SummaryQuery = z
  .object({
    from: dateSchema.optional().openapi({ description: 'spent_date on or after (default: from the first entry).' }),
    to: dateSchema.optional().openapi({ description: 'spent_date on or before (default: to the last entry).' }),
    group_by: z.enum(['project', 'user', 'client']).default('project'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`.', path: ['from'] });

export const SummaryRow = z
  .object({
    id: z.string().nullable().openapi({ description: 'The project, user or client; null groups the entries of projects without a client.' }),
    name: z.string().nullable(),
    seconds: z.number().int().openapi({ description: 'Σ duration_seconds of stopped entries.' }),
    billable_seconds: z.number().int().openapi({ description: 'Σ billable_seconds of the entries.' }),
    uninvoiced_seconds: z.number().int().openapi({ description: 'The part of billable_seconds no invoice bills yet.' }),
    uninvoiced_amount: z.number().int().openapi({
      description: 'Σ round(billable_seconds × rate / 3600) over uninvoiced entries, half away from zero per entry, in minor units of `currency`; an entry without a rate adds 0.',
    }),
    currency: z.string(),
  })
  .openapi('TimeSummaryRow');

export const Summary = z.array(SummaryRow).openapi('TimeSummary');

export type CreateTimeEntryInput = z.infer<typeof CreateTimeEntryBody>;
export type UpdateTimeEntryInput = z.infer<typeof UpdateTimeEntryBody>;
export type TimeEntryFilter = z.infer<typeof TimeEntryQuery>;
export type SummaryFilter = z.infer<typeof SummaryQuery>;

export const InvoiceFromTimeBody = z
  .strictObject({
    client_id: idSchema('client').openapi({ description: 'One of your clients; the invoice is in its currency.' }),
    project_ids: z.array(idSchema('project')).min(1).max(50).optional().openapi({ description: 'Only these of the client\'s projects (422 for another\'s); default all of them.' }),
    from: dateSchema.optional().openapi({ description: 'Entries with spent_date on or after.' }),
    to: dateSchema.optional().openapi({ description: 'Entries with spent_date on or before.' }),
    group_by: z.enum(['project', 'task', 'user', 'entry']).default('project').openapi({ description: 'One line per group and rate.' }),
    include_expenses: z.boolean().default(true).openapi({ description: 'Also bill the billable, not yet invoiced expenses of those projects incurred in the period, one line each.' }),
    issue_date: dateSchema.optional(),
    due_date: dateSchema.optional(),
    notes: longText(5000).optional(),
    tax_rate: taxRate.optional(),
    tax_category: TaxCategory.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`.', path: ['from'] })
  .refine((q) => q.tax_category === undefined || (q.tax_category === 'S') === (q.tax_rate ?? 0) > 0, {
    message: 'Category S takes a tax_rate above 0; every other category takes 0.', path: ['tax_rate'],
  })
  .openapi('InvoiceFromTime');

export type InvoiceFromTimeInput = z.infer<typeof InvoiceFromTimeBody>;
