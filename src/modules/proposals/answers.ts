// The two smaller answers to a submitted proposal (§24): its sender withdraws it, or the poster
// declines it. Each is one read and one guarded directory batch with the other side's event
// (`proposal.withdrawn` to the poster, `proposal.declined` to the sender, with the sender's email).
import { and, eq } from 'drizzle-orm';
import { gigs, proposalEmails, proposals, workspaces } from '../../db/schema';
import { invalidState, notFound } from '../../errors';
import type { ServiceContext } from '../../lib/context';
import { changedRows, insertIf, previousChanged, retryOnRace } from '../../lib/guarded-write';
import { recordEvent } from '../events/record';
import { type Aftermath, eventContext, queuedEmail } from './notify';
import { concerns } from './reads';
import { type ProposalRow, serializeProposal } from './serialize';

const stillSubmitted = (row: ProposalRow) => and(eq(proposals.id, row.id), eq(proposals.status, 'submitted'), eq(proposals.updatedAt, row.updatedAt));

const notSubmitted = (row: ProposalRow) => invalidState(`This proposal is ${row.status}: only a submitted one can be withdrawn or answered.`);

/** The sender takes back its submitted proposal; the poster's workspace is told. */
export async function withdrawProposal(ctx: ServiceContext, id: string): Promise<{ row: ProposalRow; aftermath: Aftermath }> {
  const d = ctx.directory;
  return retryOnRace('proposal', async () => {
    const [found] = await d
      .select({ proposal: proposals, poster: gigs.workspaceId, database: workspaces.database })
      .from(proposals)
      .innerJoin(gigs, eq(gigs.id, proposals.gigId))
      .innerJoin(workspaces, eq(workspaces.id, gigs.workspaceId))
      .where(and(eq(proposals.id, id), concerns(ctx)));
    if (!found) throw notFound('Proposal');
    const before = found.proposal;
    if (before.workspaceId !== ctx.workspaceId) throw invalidState('This proposal was sent to your gig: only the workspace that sent it can withdraw it (decline it instead).');
    if (before.status !== 'submitted') throw notSubmitted(before);
    const at = new Date().toISOString();
    const after: ProposalRow = { ...before, status: 'withdrawn', updatedAt: at };
    const [updated] = await d.batch([
      d.update(proposals).set({ status: 'withdrawn', updatedAt: at }).where(stillSubmitted(before)),
      recordEvent(eventContext(ctx, found.poster), 'proposal.withdrawn', serializeProposal(after), { ifChanged: true, at }),
    ]);
    if (!changedRows(updated)) return undefined;
    return { row: after, aftermath: { relay: [{ workspaceId: found.poster, database: found.database }], emails: [] } };
  });
}

/** The poster declines a submitted proposal on its gig, with a reason or none; the sender is told. */
export async function declineProposal(ctx: ServiceContext, gigId: string, id: string, reason: string | null): Promise<{ row: ProposalRow; aftermath: Aftermath }> {
  const d = ctx.directory;
  return retryOnRace('proposal', async () => {
    const [found] = await d
      .select({ proposal: proposals, database: workspaces.database })
      .from(proposals)
      .innerJoin(gigs, eq(gigs.id, proposals.gigId))
      .innerJoin(workspaces, eq(workspaces.id, proposals.workspaceId))
      .where(and(eq(proposals.id, id), eq(proposals.gigId, gigId), eq(gigs.workspaceId, ctx.workspaceId)));
    if (!found) throw notFound('Proposal');
    const before = found.proposal;
    if (before.status !== 'submitted') throw notSubmitted(before);
    const at = new Date().toISOString();
    const after: ProposalRow = { ...before, status: 'declined', declineReason: reason, updatedAt: at };
    const email = queuedEmail(before.id, 'declined', { userId: before.userId, workspaceId: before.workspaceId }, at);
    const [updated] = await d.batch([
      d.update(proposals).set({ status: 'declined', declineReason: reason, updatedAt: at }).where(stillSubmitted(before)),
      recordEvent(eventContext(ctx, before.workspaceId), 'proposal.declined', serializeProposal(after), { ifChanged: true, at }),
      insertIf(d, proposalEmails, email, previousChanged),
    ]);
    if (!changedRows(updated)) return undefined;
    return { row: after, aftermath: { relay: [{ workspaceId: before.workspaceId, database: found.database }], emails: [email.id] } };
  });
}
