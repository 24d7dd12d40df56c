// Sending a proposal (§24): a member of any workspace but the poster's answers an open gig. One
// read (the gig and where its workspace lives, this workspace's live proposal on it, its 20th
// proposal of the last 24 hours, its name) and one guarded directory batch: the proposal, the
// poster's `gig.proposal_received` event and the email to the poster, written only while the gig is
// open, no live proposal of this workspace is on it and the day's 20 are not used up. A race lost
// on any of them is read again, and answered as if it had been seen first.
import { and, count, desc, eq, gt, notExists, sql } from 'drizzle-orm';
import { gigs, proposalEmails, proposals, workspaces } from '../../db/schema';
import { ApiError, invalidField, invalidState, notFound } from '../../errors';
import type { ServiceContext } from '../../lib/context';
import { changedRows, insertIf, previousChanged, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { toScaledInteger } from '../../lib/money';
import { recordEvent } from '../events/record';
import { type Aftermath, eventContext, queuedEmail } from './notify';
import { closedGigMessage, gigStillOpen, isOpenGig } from './open-gig';
import { type CreateProposalInput, PROPOSALS_PER_DAY } from './schemas';
import { type ProposalRow, serializeProposal } from './serialize';

const DAY_MS = 86_400_000;

export async function propose(ctx: ServiceContext, gigId: string, input: CreateProposalInput): Promise<{ row: ProposalRow; aftermath: Aftermath }> {
  const d = ctx.directory;
  return retryOnRace('gig', async () => {
    const now = new Date();
    const at = now.toISOString();
    const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
    const live = and(eq(proposals.gigId, gigId), eq(proposals.workspaceId, ctx.workspaceId), eq(proposals.status, 'submitted'));
    const sentToday = and(eq(proposals.workspaceId, ctx.workspaceId), gt(proposals.createdAt, dayAgo));
    const [[gig], [first], [oldestOfDay], [sender]] = await d.batch([
      d.select({ gig: gigs, database: workspaces.database }).from(gigs).innerJoin(workspaces, eq(workspaces.id, gigs.workspaceId)).where(eq(gigs.id, gigId)),
      d.select({ id: proposals.id }).from(proposals).where(live).limit(1),
      // The 20th newest of the last 24 hours: while there is one, the day's proposals are used up.
      d.select({ createdAt: proposals.createdAt }).from(proposals).where(sentToday).orderBy(desc(proposals.createdAt)).limit(1).offset(PROPOSALS_PER_DAY - 1),
      d.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, ctx.workspaceId)),
    ]);
    if (!gig) throw notFound('Gig');
    if (gig.gig.workspaceId === ctx.workspaceId) throw new ApiError('conflict', 'This gig was posted by this workspace: a workspace does not answer its own gigs.');
    if (!isOpenGig(gig.gig)) throw invalidState(closedGigMessage(gig.gig));
    if (first) throw new ApiError('conflict', `This workspace already has a live proposal on this gig, ${first.id}: withdraw it before sending another.`);
    if (oldestOfDay) {
      const retryAfter = Math.max(1, Math.ceil((Date.parse(oldestOfDay.createdAt) + DAY_MS - now.getTime()) / 1000));
      throw new ApiError('rate_limited', `A workspace sends at most ${PROPOSALS_PER_DAY} proposals in 24 hours.`, undefined, { 'Retry-After': String(retryAfter) });
    }
    const rate = input.rate ?? null;
    if (rate?.currency && rate.currency !== gig.gig.currency) throw invalidField('rate.currency', `A proposal's rate is in the gig's currency, ${gig.gig.currency}.`);
    const row: ProposalRow = {
      id: newId('proposal'), gigId, workspaceId: ctx.workspaceId, userId: ctx.userId, status: 'submitted', message: input.message,
      rateType: rate?.type ?? null, rateAmount: rate?.amount ?? null, rateCurrency: rate ? gig.gig.currency : null,
      estimateMilliHours: input.estimate_hours == null ? null : toScaledInteger(input.estimate_hours, 3), availableFrom: input.available_from ?? null,
      links: JSON.stringify(input.links), fromWorkspaceName: sender?.name ?? ctx.actor.name, fromUserName: ctx.actor.name, fromBusinessName: null, fromEmail: null,
      declineReason: null, clientId: null, projectId: null, quoteId: null, acceptedAt: null, recordsPending: false, createdAt: at, updatedAt: at,
    };
    const guard = and(
      gigStillOpen(d, gigId),
      notExists(d.select({ one: sql`1` }).from(proposals).where(live)),
      sql`(${d.select({ n: count() }).from(proposals).where(sentToday)}) < ${PROPOSALS_PER_DAY}`,
    )!;
    const email = queuedEmail(row.id, 'received', { userId: gig.gig.userId, workspaceId: gig.gig.workspaceId }, at);
    const [inserted] = await d.batch([
      insertIf(d, proposals, row, guard),
      recordEvent(eventContext(ctx, gig.gig.workspaceId), 'gig.proposal_received', serializeProposal(row), { ifChanged: true, at }),
      insertIf(d, proposalEmails, email, previousChanged),
    ]);
    if (!changedRows(inserted)) return undefined; // something changed since the read: read again
    return { row, aftermath: { relay: [{ workspaceId: gig.gig.workspaceId, database: gig.database }], emails: [email.id] } };
  });
}
