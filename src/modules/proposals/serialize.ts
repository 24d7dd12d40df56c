// A proposal as the API shows it: one shape for both of its workspaces (its events carry the same),
// which names the sender by names only until the poster accepts; never a user id or, before
// then, an email.
import type { proposals } from '../../db/schema';
import { fromScaledInteger } from '../../lib/money';

export type ProposalRow = typeof proposals.$inferSelect;

export const serializeProposal = (row: ProposalRow) => ({
  id: row.id,
  gig_id: row.gigId,
  status: row.status,
  message: row.message,
  rate: row.rateType === null ? null : { type: row.rateType, amount: row.rateAmount!, currency: row.rateCurrency! },
  estimate_hours: row.estimateMilliHours === null ? null : fromScaledInteger(row.estimateMilliHours, 3),
  available_from: row.availableFrom,
  links: JSON.parse(row.links) as string[],
  from: { workspace: row.fromWorkspaceName, name: row.fromUserName, business_name: row.fromBusinessName, email: row.fromEmail },
  decline_reason: row.declineReason,
  client_id: row.clientId,
  project_id: row.projectId,
  quote_id: row.quoteId,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export type ProposalObject = ReturnType<typeof serializeProposal>;
