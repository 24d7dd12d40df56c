import { z } from '@hono/zod-openapi';
import { TimeRoundingSchema } from '../time-entries/schemas';
import { currencySchema, dateSchema, idSchema, listQuery, longText, minorAmount, pageOf, searchText, text, timestampSchema } from '../../lib/schemas';

export const ProjectStatus = z.enum(['active', 'on_hold', 'completed', 'archived']);

const projectFields = {
  name: text(200).min(1),
  client_id: idSchema('client').nullish().openapi({ description: 'One of your clients; 422 otherwise.' }),
  description: longText(5000).nullish(),
  status: ProjectStatus.optional(),
  currency: currencySchema.optional().openapi({ description: 'Currency of budget and hourly_rate. Defaults to the client\'s, else USD.' }),
  budget: minorAmount('Budget in minor units of the project currency.').nullish(),
  hourly_rate: minorAmount('Hourly rate in minor units of the project currency.').nullish(),
  start_date: dateSchema.nullish(),
  due_date: dateSchema.nullish(),
  time_rounding: TimeRoundingSchema.optional(),
};

const datesOrdered = (v: { start_date?: string | null; due_date?: string | null }) =>
  !v.start_date || !v.due_date || v.due_date >= v.start_date;
const datesIssue = { message: 'due_date must not be before start_date.', path: ['due_date'] };

export const CreateProjectBody = z.strictObject(projectFields).refine(datesOrdered, datesIssue).openapi('CreateProject');
export const UpdateProjectBody = z
  .strictObject({ ...projectFields, name: projectFields.name.optional() })
  .refine(datesOrdered, datesIssue)
  .openapi('UpdateProject');

export const Project = z
  .object({
    id: idSchema('project'),
    name: z.string(),
    client_id: z.string().nullable(),
    description: z.string().nullable(),
    status: ProjectStatus,
    currency: z.string(),
    budget: z.number().int().nullable(),
    hourly_rate: z.number().int().nullable(),
    start_date: z.string().nullable(),
    due_date: z.string().nullable(),
    time_rounding: TimeRoundingSchema,
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Project');

export const ProjectTotals = z
  .object({
    currency: z.literal('USD'),
    invoiced: z.number().int().openapi({ description: 'Totals of the project\'s open and paid invoices, in USD cents.' }),
    paid: z.number().int().openapi({ description: 'Payments received on them, in USD cents.' }),
    expenses: z.number().int().openapi({ description: 'The project\'s expenses, in USD cents.' }),
    input_tax: z.number().int().openapi({ description: 'Their `tax_amount`, reclaimable.' }),
    profit: z.number().int().openapi({ description: 'paid − (expenses − input_tax).' }),
    unbilled_amount: z.number().int().openapi({
      description: 'Unbilled billable time in USD cents: each stopped entry\'s round(billable_seconds × rate / 3600), half away from zero, summed per currency and converted.',
    }),
  })
  .openapi('ProjectTotals');

export const ProjectWithTotals = Project.extend({ totals: ProjectTotals }).openapi('ProjectWithTotals');

export const ProjectQuery = listQuery.extend({
  status: ProjectStatus.optional(),
  client_id: idSchema('client').optional(),
  q: searchText(200).optional().openapi({ description: 'Name contains (case-insensitive).' }),
});

export const ProjectPage = pageOf(Project);

export type CreateProjectInput = z.infer<typeof CreateProjectBody>;
export type UpdateProjectInput = z.infer<typeof UpdateProjectBody>;
export type ProjectFilter = z.infer<typeof ProjectQuery>;
