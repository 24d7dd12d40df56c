// The cron's watch on proposals no one answered: past its 10 minutes, a pending (or accepted but
// never performed) proposal becomes `expired` and writes mcp.proposal_expired once (the UPDATE is
// guarded on its status), so the event record shows every proposal's end, not only those someone
// tried to confirm late. In chunks found by the (status, expires_at) index.
import { and, asc, eq, gt, inArray, lt, or } from 'drizzle-orm';
import { mcpProposals } from '../../../db/schema/mcp-proposals';
import { CRON_CHUNK, inChunks } from '../../../lib/chunked';
import { systemContext } from '../../../lib/context';
import { createDb } from '../../../lib/db';
import { budgetOf } from '../../../lib/query-budget';
import { moveProposal, type Proposal } from './store';

export const PROPOSAL_EXPIRY_JOB = 'mcp_proposal_expiry';
const MAX_PER_RUN = 2000;
const OPEN: Proposal['status'][] = ['pending', 'accepted'];

/** Expires every open proposal past its time on this env's database. Returns how many. */
export async function expireProposals(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const at = new Date(now).toISOString();
  let expired = 0;
  const find = (after: Proposal | undefined) =>
    db
      .select()
      .from(mcpProposals)
      .where(and(inArray(mcpProposals.status, OPEN), lt(mcpProposals.expiresAt, at), after ? afterProposal(after) : undefined))
      .orderBy(asc(mcpProposals.expiresAt), asc(mcpProposals.id))
      .limit(CRON_CHUNK);
  await inChunks(find, async (proposal) => {
    if (await moveProposal(systemContext(env, proposal.workspaceId, PROPOSAL_EXPIRY_JOB), proposal, OPEN, 'expired')) expired++;
  }, MAX_PER_RUN, budgetOf(env));
  return expired;
}

const afterProposal = (row: Proposal) =>
  or(gt(mcpProposals.expiresAt, row.expiresAt), and(eq(mcpProposals.expiresAt, row.expiresAt), gt(mcpProposals.id, row.id)));
