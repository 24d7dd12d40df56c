// Proposals (§24): what a sender writes, and the proposal as both its workspaces read it.
import { z } from '@hono/zod-openapi';
import { lineAmount, MAX_MINOR_AMOUNT, threeDecimals, toScaledInteger } from '../../lib/money';
import { currencySchema, dateSchema, idSchema, listQuery, longText, minorAmount, pageOf, text, timestampSchema } from '../../lib/schemas';
import { PROPOSAL_STATUSES } from '../../db/schema/proposals';

export const ProposalStatus = z.enum(PROPOSAL_STATUSES);
const RateType = z.enum(['fixed', 'hourly']);

/** How many proposals a workspace may send in 24 hours (§24). */
export const PROPOSALS_PER_DAY = 20;


const httpsUrl = z
  .url({ protocol: /^https$/, message: 'Use an https URL.' })
  .max(2048);

export const CreateProposalBody = z
  .strictObject({
    message: longText(5000).min(1),
    rate: z
      .strictObject({
        type: RateType,
        amount: minorAmount('The price, or per hour.'),
        currency: currencySchema.optional().openapi({ description: 'The gig\'s (the default).' }),
      })
      .nullish(),
    estimate_hours: z.number().gt(0).max(100_000).refine(threeDecimals, { message: 'At most 3 decimals.' }).nullish(),
    available_from: dateSchema.nullish(),
    links: z.array(httpsUrl).max(10).default([]),
  })
  // The draft quote an accept makes is estimate_hours × the hourly rate: an amount like any other.
  .refine((v) => v.rate?.type !== 'hourly' || !v.estimate_hours || lineAmount(toScaledInteger(v.estimate_hours, 3) ?? 0, v.rate.amount) <= MAX_MINOR_AMOUNT, {
    message: `estimate_hours × the hourly rate must not exceed ${MAX_MINOR_AMOUNT} minor units.`,
    path: ['estimate_hours'],
  })
  .openapi('CreateProposal');

export const DeclineProposalBody = z.strictObject({ reason: text(1000).min(1).nullish() }).openapi('DeclineProposal');

export const Proposal = z
  .object({
    id: idSchema('proposal'),
    gig_id: idSchema('gig'),
    status: ProposalStatus,
    message: z.string(),
    rate: z.object({ type: RateType, amount: z.number().int(), currency: z.string() }).nullable(),
    estimate_hours: z.number().nullable(),
    available_from: z.string().nullable(),
    links: z.array(z.string()),
    from: z
      .object({ workspace: z.string(), name: z.string(), business_name: z.string().nullable(), email: z.string().nullable() })
      .openapi({ description: 'Names only; `business_name` and `email` once accepted.' }),
    decline_reason: z.string().nullable(),
    client_id: idSchema('client').nullable(),
    project_id: idSchema('project').nullable(),
    quote_id: idSchema('quote').nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Proposal', { description: 'The same to both workspaces.' });

export const ProposalQuery = listQuery.extend({ status: ProposalStatus.optional(), gig_id: idSchema('gig').optional() });
export const GigProposalQuery = listQuery.extend({ status: ProposalStatus.optional() });

export const ProposalPage = pageOf(Proposal);

/** `{pid}` beside the gig's `{id}`. */
export const GigProposalParams = z.object({
  id: idSchema('gig').openapi({ param: { name: 'id', in: 'path' } }),
  pid: idSchema('proposal').openapi({ param: { name: 'pid', in: 'path' } }),
});

export type CreateProposalInput = z.infer<typeof CreateProposalBody>;
export type ProposalFilter = z.infer<typeof ProposalQuery>;
export type GigProposalFilter = z.infer<typeof GigProposalQuery>;
