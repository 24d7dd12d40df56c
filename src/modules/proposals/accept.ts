// The poster accepts a proposal (§24): once per gig. One read of the directory (the proposal, the
// gig, both workspaces, the gig's other submitted proposals), then one guarded directory batch that
// claims the accept: the proposal `accepted` with the ids of the records it makes and what the
// poster now learns of its sender, the gig closed, every other submitted proposal declined with its
// sender's event and email, the sender's email, and the poster's own `proposal.accepted`. The
// guard is the proposal still submitted on a gig still open with no submitted proposal the read did
// not see, so of two accepts on one gig one wins and the other reads again and answers 409.
// Then the records, in one batch on the sender's database (accept-records.ts): three D1 round trips.
import { and, eq, exists, inArray, ne, notExists, sql } from 'drizzle-orm';
import { events, gigs, proposalEmails, proposals, users, workspaces } from '../../db/schema';
import { invalidState, notFound } from '../../errors';
import type { ServiceContext } from '../../lib/context';
import { DIRECTORY } from '../../lib/databases';
import type { Db } from '../../lib/db';
import { changedRows, insertIf, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { eventRow } from '../events/record';
import { issuerOf } from '../workspaces/settings';
import { type AcceptedProposal, finishAccept, senderDatabase, writeAcceptedRecords } from './accept-records';
import { type Aftermath, eventContext, eventRows, insertRowsIf, queuedEmail } from './notify';
import { closedGigMessage, gigStillOpen, isOpenGig } from './open-gig';
import { type ProposalRow, serializeProposal } from './serialize';

/** Why the others were declined, in their decline_reason. */
export const ANOTHER_ACCEPTED = 'Another proposal was accepted for this gig.';

/** "`ids`, given as one JSON parameter": any number of ids in one bound parameter. */
const among = (ids: string[]) => sql`${proposals.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

// Separate selects rather than joins: D1's batch answers rows as objects, so columns of the same name
// in two joined tables would overwrite each other.
async function readForAccept(ctx: ServiceContext, gigId: string, id: string) {
  const d = ctx.directory;
  const ofProposal = (column: typeof proposals.workspaceId | typeof proposals.userId) => d.select({ id: column }).from(proposals).where(eq(proposals.id, id));
  const [[proposal], [gig], [sender], [senderUser], [poster], others] = await d.batch([
    d.select().from(proposals).where(and(eq(proposals.id, id), eq(proposals.gigId, gigId))),
    d.select().from(gigs).where(and(eq(gigs.id, gigId), eq(gigs.workspaceId, ctx.workspaceId))),
    d.select().from(workspaces).where(inArray(workspaces.id, ofProposal(proposals.workspaceId))),
    d.select({ email: users.email }).from(users).where(inArray(users.id, ofProposal(proposals.userId))),
    d.select().from(workspaces).where(eq(workspaces.id, ctx.workspaceId)),
    d.select({ proposal: proposals, database: workspaces.database })
      .from(proposals)
      .innerJoin(workspaces, eq(workspaces.id, proposals.workspaceId))
      .where(and(eq(proposals.gigId, gigId), eq(proposals.status, 'submitted'), ne(proposals.id, id))),
  ]);
  if (!proposal || !gig || !sender || !senderUser || !poster) throw notFound('Proposal');
  return { proposal, gig, sender, senderEmail: senderUser.email, poster, others };
}

export type AcceptResult = { row: ProposalRow; aftermath: Aftermath };

/** `open(database)`: the request's session on that database, where the sender's records are written. */
export async function acceptProposal(ctx: ServiceContext, gigId: string, id: string, open: (database: string) => Db): Promise<AcceptResult> {
  const d = ctx.directory;
  const claimed = await retryOnRace('gig', async () => {
    const read = await readForAccept(ctx, gigId, id);
    const { proposal, gig, sender, poster, others } = read;
    if (proposal.status === 'accepted' && proposal.recordsPending) {
      // Claimed by an earlier request whose records are not known to have landed: finish it.
      return { accepted: { proposal, gig, sender, poster }, aftermath: { relay: [], emails: [] }, resumed: true };
    }
    if (proposal.status !== 'submitted') throw invalidState(`This proposal is ${proposal.status}; only a submitted one can be accepted.`);
    if (!isOpenGig(gig)) throw invalidState(closedGigMessage(gig));
    const at = new Date().toISOString();
    const issuer = issuerOf(sender);
    const accepted: ProposalRow = {
      ...proposal, status: 'accepted', clientId: newId('client'), projectId: newId('project'), quoteId: newId('quote'),
      fromBusinessName: issuer.legal_name ?? sender.name, fromEmail: issuer.email ?? read.senderEmail, acceptedAt: at, recordsPending: true, updatedAt: at,
    };
    const declined = others.map(({ proposal: other, database }) => ({ row: { ...other, status: 'declined' as const, declineReason: ANOTHER_ACCEPTED, updatedAt: at }, database }));
    const otherIds = others.map((o) => o.proposal.id);
    const acceptedNow = exists(d.select({ one: sql`1` }).from(proposals).where(and(eq(proposals.id, id), eq(proposals.status, 'accepted'), eq(proposals.acceptedAt, at))));
    const unseen = d.select({ one: sql`1` }).from(proposals).where(and(eq(proposals.gigId, gigId), eq(proposals.status, 'submitted'), ne(proposals.id, id), sql`NOT ${among(otherIds)}`));
    const senderEmail = queuedEmail(id, 'accepted', { userId: proposal.userId, workspaceId: proposal.workspaceId }, at);
    const declineEmails = declined.map(({ row }) => queuedEmail(row.id, 'declined', { userId: row.userId, workspaceId: row.workspaceId }, at));
    const [claim] = await d.batch([
      d.update(proposals)
        .set({
          status: 'accepted', clientId: accepted.clientId, projectId: accepted.projectId, quoteId: accepted.quoteId, fromBusinessName: accepted.fromBusinessName,
          fromEmail: accepted.fromEmail, acceptedAt: at, recordsPending: true, updatedAt: at,
        })
        .where(and(eq(proposals.id, id), eq(proposals.status, 'submitted'), gigStillOpen(d, gigId), notExists(unseen))),
      d.update(gigs).set({ status: 'closed', updatedAt: at }).where(and(eq(gigs.id, gigId), acceptedNow)),
      ...(otherIds.length ? [d.update(proposals).set({ status: 'declined', declineReason: ANOTHER_ACCEPTED, updatedAt: at }).where(and(among(otherIds), eq(proposals.status, 'submitted'), acceptedNow))] : []),
      ...insertRowsIf(d, events, eventRows(ctx, 'proposal.declined', declined.map(({ row }) => ({ workspaceId: row.workspaceId, object: serializeProposal(row) })), at), acceptedNow),
      ...insertRowsIf(d, proposalEmails, declineEmails, acceptedNow),
      insertIf(d, proposalEmails, senderEmail, acceptedNow),
      // The poster's own event, last: its object is this request's answer.
      insertIf(d, events, eventRow(eventContext(ctx, ctx.workspaceId, ctx.actor), 'proposal.accepted', serializeProposal(accepted), { at }), acceptedNow),
    ]);
    if (!changedRows(claim)) return undefined; // accepted, declined or answered meanwhile: read again
    const aftermath: Aftermath = {
      relay: [{ workspaceId: ctx.workspaceId, database: poster.database }, ...declined.map(({ row, database }) => ({ workspaceId: row.workspaceId, database }))],
      emails: [senderEmail.id, ...declineEmails.map((e) => e.id)],
    };
    return { accepted: { proposal: accepted, gig: { ...gig, status: 'closed' as const, updatedAt: at }, sender, poster } satisfies AcceptedProposal, aftermath, resumed: false };
  });
  const database = senderDatabase(claimed.accepted);
  if (claimed.resumed) {
    // An accept already claimed: this request finishes its records, unless they had landed (then it was accepted once already).
    if ((await finishAccept(ctx.env, d, open(database), claimed.accepted)) === 'landed before') throw invalidState('This proposal is accepted; only a submitted one can be accepted.');
    return { row: { ...claimed.accepted.proposal, recordsPending: false }, aftermath: claimed.aftermath };
  }
  try {
    // On the directory's own database the records' batch clears the pending mark itself; elsewhere the
    // cron does, after checking that they landed, which keeps the accept at three round trips.
    await writeAcceptedRecords(open(database), ctx.env, claimed.accepted, database === DIRECTORY);
  } catch (err) {
    // The accept stands; its records follow with the cron (finishPendingAccepts), or a retried accept.
    console.warn(JSON.stringify({ level: 'warn', message: 'accepted proposal\'s records not written yet; the cron will', proposal_id: id, reason: String(err) }));
  }
  return { row: claimed.accepted.proposal, aftermath: claimed.aftermath };
}
