import { z } from '@hono/zod-openapi';
import { currencySchema, dateSchema, idSchema, listQuery, longText, minorAmount, pageOf, queryBoolean, searchText, text, timestampSchema } from '../../lib/schemas';

export const GigStatus = z.enum(['open', 'closed']);
export const BudgetType = z.enum(['fixed', 'hourly']);

const skills = z
  .array(text(50).min(1).toLowerCase())
  .max(20)
  .openapi({ description: 'Up to 20 skills, stored in lower case.', example: ['typescript', 'cloudflare'] });

const gigFields = {
  title: text(200).min(3),
  description: longText(5000).min(1),
  skills: skills.default([]),
  budget_type: BudgetType,
  budget_min: minorAmount('Lowest budget, in minor units of `currency` (per hour when hourly).'),
  budget_max: minorAmount('Highest budget; at least budget_min.'),
  currency: currencySchema.default('USD'),
  remote: z.boolean().default(true),
  location: text(200).nullish(),
  expires_on: dateSchema.nullish(),
};

const budgetOrdered = (v: { budget_min?: number; budget_max?: number }) =>
  v.budget_min === undefined || v.budget_max === undefined || v.budget_min <= v.budget_max;
const budgetIssue = { message: 'budget_max must be at least budget_min.', path: ['budget_max'] };

export const CreateGigBody = z.strictObject(gigFields).refine(budgetOrdered, budgetIssue).openapi('CreateGig');

export const UpdateGigBody = z
  .strictObject({
    title: gigFields.title.optional(),
    description: gigFields.description.optional(),
    skills: skills.optional(),
    budget_type: BudgetType.optional(),
    budget_min: gigFields.budget_min.optional(),
    budget_max: gigFields.budget_max.optional(),
    currency: currencySchema.optional(),
    remote: z.boolean().optional(),
    location: gigFields.location,
    expires_on: gigFields.expires_on,
    status: GigStatus.optional().openapi({ description: '"closed" takes the gig off the board.' }),
  })
  .refine(budgetOrdered, budgetIssue)
  .openapi('UpdateGig');

export const Gig = z
  .object({
    id: idSchema('gig'),
    title: z.string(),
    description: z.string(),
    skills: z.array(z.string()),
    budget_type: BudgetType,
    budget_min: z.number().int(),
    budget_max: z.number().int(),
    currency: z.string(),
    remote: z.boolean(),
    location: z.string().nullable(),
    status: GigStatus,
    posted_by: z.object({ name: z.string() }).openapi({ description: 'The poster\'s display name only: never an email or user id.' }),
    proposals_count: z.number().int().openapi({ description: 'Proposals received (withdrawn ones aside); never who sent them.' }),
    created_at: timestampSchema,
    expires_on: z.string().nullable(),
  })
  .openapi('Gig');

export const GigQuery = listQuery.extend({
  status: GigStatus.default('open'),
  q: searchText(200).optional().openapi({ description: 'Full-text search over title, description and skills (words, prefix-matched, all must match).' }),
  skill: text(50).toLowerCase().optional(),
  remote: queryBoolean.optional(),
  budget_type: BudgetType.optional(),
  currency: currencySchema.optional(),
  min_budget: z.coerce.number().int().min(0).optional().openapi({ description: 'Gigs whose budget_max reaches at least this (minor units).' }),
});

export const GigPage = pageOf(Gig);

export type CreateGigInput = z.infer<typeof CreateGigBody>;
export type UpdateGigInput = z.infer<typeof UpdateGigBody>;
export type GigFilter = z.infer<typeof GigQuery>;
