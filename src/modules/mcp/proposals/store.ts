// Proposals in D1, each change in one batch with its event (`mcp.proposal_created`, `…_confirmed`,
// `…_expired`), guarded by the status it leaves, so of two racing requests one changes it and writes
// the event. A proposal lives with the workspace's records; only its workspace finds it.
import { and, eq, inArray } from 'drizzle-orm';
import { mcpProposals } from '../../../db/schema/mcp-proposals';
import type { ServiceContext, WorkspaceContext } from '../../../lib/context';
import { changedRows } from '../../../lib/guarded-write';
import type { Db } from '../../../lib/db';
import { newId } from '../../../lib/ids';
import { recordEvent } from '../../events/record';

export type Proposal = typeof mcpProposals.$inferSelect;
export type ProposalStatus = Proposal['status'];

/** How long a person has to say yes. */
export const PROPOSAL_LIFETIME_MS = 10 * 60 * 1000;

/** The proposal as events carry it: what was proposed, by which key, and where it stands. */
export const proposalObject = (row: Proposal) => ({
  id: row.id,
  tool: row.tool,
  summary: row.summary,
  status: row.status,
  key_id: row.keyId,
  user_id: row.userId,
  expires_at: row.expiresAt,
  created_at: row.createdAt,
  decided_at: row.decidedAt,
});

/** What the first call of a tool that needs a yes answers. */
export const proposalAnswer = (row: Proposal) => ({ proposal_id: row.id, summary: row.summary, expires_at: row.expiresAt });

export type ProposedRequest = { method: string; path: string; body?: unknown };

export async function createProposal(ctx: ServiceContext, tool: string, request: ProposedRequest, summary: string): Promise<Proposal> {
  const now = new Date();
  const row: Proposal = {
    id: newId('mcpProposal'), workspaceId: ctx.workspaceId, userId: ctx.userId, keyId: ctx.keyId, tool,
    method: request.method, path: request.path, body: request.body === undefined ? null : JSON.stringify(request.body),
    summary, status: 'pending', expiresAt: new Date(now.getTime() + PROPOSAL_LIFETIME_MS).toISOString(), createdAt: now.toISOString(),
    decidedAt: null, resultStatus: null, resultBody: null,
  };
  await ctx.db.batch([ctx.db.insert(mcpProposals).values(row), recordEvent(ctx, 'mcp.proposal_created', proposalObject(row))]);
  return row;
}

/** The workspace's proposal with that id; `db` may be another handle on the same database (the primary, for a poll). */
export async function findProposal(ctx: ServiceContext, id: string, db: Db = ctx.db): Promise<Proposal | undefined> {
  return db.select().from(mcpProposals).where(and(eq(mcpProposals.workspaceId, ctx.workspaceId), eq(mcpProposals.id, id))).get();
}

const EVENTS: Partial<Record<ProposalStatus, 'mcp.proposal_confirmed' | 'mcp.proposal_expired'>> = {
  confirmed: 'mcp.proposal_confirmed',
  expired: 'mcp.proposal_expired',
};

/**
 * Moves a proposal from one of `from` to `to` (with the operation's answer, once performed) and
 * writes its event; answers the row as it now is, or undefined when another request moved it first.
 */
export async function moveProposal(
  ctx: WorkspaceContext, row: Proposal, from: ProposalStatus[], to: ProposalStatus, result?: { status: number; body: string },
): Promise<Proposal | undefined> {
  // The request's body (a transfer's recipient and account number among them) is kept only while it may still be
  // performed: once the proposal is confirmed, declined or expired, its answer is what a second confirm replays.
  const settled = to !== 'pending' && to !== 'accepted';
  const moved: Proposal = {
    ...row, status: to, decidedAt: new Date().toISOString(), ...(settled ? { body: null } : {}), ...(result ? { resultStatus: result.status, resultBody: result.body } : {}),
  };
  const guard = and(eq(mcpProposals.workspaceId, ctx.workspaceId), eq(mcpProposals.id, row.id));
  const update = ctx.db
    .update(mcpProposals)
    .set({ status: to, decidedAt: moved.decidedAt, body: moved.body, resultStatus: moved.resultStatus, resultBody: moved.resultBody })
    .where(and(guard, inArray(mcpProposals.status, from)));
  const event = EVENTS[to];
  const [changed] = event ? await ctx.db.batch([update, recordEvent(ctx, event, proposalObject(moved), { ifChanged: true })]) : [await update];
  return changedRows(changed) ? moved : undefined;
}
