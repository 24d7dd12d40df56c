// Reading proposals (§24): the sender lists its own; the poster lists its gig's; either of the two
// workspaces reads one. Anyone else gets a 404, as for any other workspace's record.
import { and, desc, eq, inArray, lt, or, type SQL } from 'drizzle-orm';
import { gigs, proposals } from '../../db/schema';
import { notFound } from '../../errors';
import type { ServiceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import type { GigProposalFilter, ProposalFilter } from './schemas';
import type { ProposalRow } from './serialize';

/** The gigs `workspaceId` posted, as a subquery. */
const postedBy = (db: Db, workspaceId: string) => db.select({ id: gigs.id }).from(gigs).where(eq(gigs.workspaceId, workspaceId));

/** "A proposal this workspace sent, or one sent to its gig." */
export const concerns = (ctx: ServiceContext): SQL =>
  or(eq(proposals.workspaceId, ctx.workspaceId), inArray(proposals.gigId, postedBy(ctx.directory, ctx.workspaceId)))!;

export async function listSentProposals(ctx: ServiceContext, filter: ProposalFilter & { beforeId?: string }): Promise<ProposalRow[]> {
  return ctx.directory
    .select()
    .from(proposals)
    .where(and(
      eq(proposals.workspaceId, ctx.workspaceId),
      filter.status ? eq(proposals.status, filter.status) : undefined,
      filter.gig_id ? eq(proposals.gigId, filter.gig_id) : undefined,
      filter.beforeId ? lt(proposals.id, filter.beforeId) : undefined,
    ))
    .orderBy(desc(proposals.id))
    .limit(filter.limit + 1);
}

export async function getProposal(ctx: ServiceContext, id: string): Promise<ProposalRow> {
  const [row] = await ctx.directory.select().from(proposals).where(and(eq(proposals.id, id), concerns(ctx)));
  if (!row) throw notFound('Proposal');
  return row;
}

/** The proposals on one of this workspace's gigs, in one round trip with the check that the gig is its own. */
export async function listGigProposals(ctx: ServiceContext, gigId: string, filter: GigProposalFilter & { beforeId?: string }): Promise<ProposalRow[]> {
  const d = ctx.directory;
  const [[gig], rows] = await d.batch([
    d.select({ id: gigs.id }).from(gigs).where(and(eq(gigs.id, gigId), eq(gigs.workspaceId, ctx.workspaceId))),
    d.select().from(proposals).where(and(
      eq(proposals.gigId, gigId),
      inArray(proposals.gigId, postedBy(d, ctx.workspaceId)),
      filter.status ? eq(proposals.status, filter.status) : undefined,
      filter.beforeId ? lt(proposals.id, filter.beforeId) : undefined,
    )).orderBy(desc(proposals.id)).limit(filter.limit + 1),
  ]);
  if (!gig) throw notFound('Gig');
  return rows;
}
