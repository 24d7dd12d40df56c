// The emails about a proposal (§24, kind `proposal`): to the poster when one arrives, to its sender
// when it is accepted or declined, each in the language of the recipient's workspace. Neither names
// the other side's person beyond what the proposal shows: the poster reads the sender's workspace and
// name, never their email. The row's state lives in proposal_emails (the directory): queued in the
// batch of the change, claimed under a lease by the emails consumer (a duplicate message finds it
// taken or sent), retried on the invoice emails' schedule, and re-queued by the cron when lost.
import { and, eq, isNull, lt, lte, or } from 'drizzle-orm';
import { html } from 'hono/html';
import { gigs, proposalEmails, proposals, users, workspaces } from '../../db/schema';
import { databaseBinding, DIRECTORY } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { formatMoney, fromScaledInteger } from '../../lib/money';
import { labelsFor } from '../documents/labels/language';
import { EMAIL_RETRY_DELAYS_MS, MAX_EMAIL_ATTEMPTS } from '../emails/schedule';
import { type ComposedEmail, sendEmail } from '../emails/providers';
import { issuerOf } from '../workspaces/settings';
import { enqueueProposalEmails, type ProposalEmailRow } from './notify';
import type { ProposalRow } from './serialize';

const LEASE_MS = 60_000;

type Composing = { kind: ProposalEmailRow['kind']; proposal: ProposalRow; gig: { id: string; title: string }; locale: string; poster: string };

export function composeProposalEmail({ kind, proposal, gig, locale, poster }: Composing): ComposedEmail {
  const p = labelsFor(locale).proposal;
  const facts: [string, string][] = [];
  if (kind === 'received') {
    if (proposal.rateType) facts.push([p.rate, `${formatMoney(proposal.rateAmount!, proposal.rateCurrency!, locale)}${proposal.rateType === 'hourly' ? ` ${p.perHour}` : ''}`]);
    if (proposal.estimateMilliHours !== null) facts.push([p.estimate, p.hours(new Intl.NumberFormat(locale).format(fromScaledInteger(proposal.estimateMilliHours, 3)))]);
    if (proposal.availableFrom) facts.push([p.availableFrom, proposal.availableFrom]);
  }
  if (kind === 'declined' && proposal.declineReason) facts.push([p.reason, proposal.declineReason]);
  const from = `${proposal.fromUserName} (${proposal.fromWorkspaceName})`;
  const subject = kind === 'received' ? p.receivedSubject(gig.title) : kind === 'accepted' ? p.acceptedSubject(gig.title) : p.declinedSubject(gig.title);
  const lead = kind === 'received' ? p.receivedLead(from, gig.title) : kind === 'accepted' ? p.acceptedLead(poster, gig.title) : p.declinedLead(gig.title);
  // Where to read it: the poster's list of the gig's proposals, or the sender's proposal.
  const where = kind === 'received' ? `GET /v1/gigs/${gig.id}/proposals` : `GET /v1/proposals/${proposal.id}`;
  const message = kind === 'received' ? proposal.message : null;
  const text = [lead, ...(message ? ['', message] : []), ...(facts.length ? ['', ...facts.map(([k, v]) => `${k}: ${v}`)] : []), '', where].join('\n');
  const body = html`<!doctype html>
<html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
<p>${lead}</p>
${message ? html`<p style="white-space:pre-wrap">${message}</p>` : ''}
${facts.length ? html`<table role="presentation" style="margin:16px 0">${facts.map(([k, v]) => html`<tr><td style="padding-right:16px">${k}</td><td>${v}</td></tr>`)}</table>` : ''}
<p><code>${where}</code></p>
</body></html>`;
  return { subject, html: String(body), text };
}

/** One attempt at a proposal's email; returns seconds to wait when the message came early. */
export async function attemptProposalEmail(env: Env, id: string): Promise<number | void> {
  const db = createDb(databaseBinding(env, DIRECTORY));
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const [claimed] = await db
    .update(proposalEmails)
    .set({ leaseUntil })
    .where(and(
      eq(proposalEmails.id, id),
      eq(proposalEmails.status, 'queued'),
      lte(proposalEmails.nextAttemptAt, new Date(now.getTime() + 1000).toISOString()),
      or(isNull(proposalEmails.leaseUntil), lte(proposalEmails.leaseUntil, now.toISOString())),
    ))
    .returning();
  if (!claimed) {
    const current = await db.query.proposalEmails.findFirst({ where: eq(proposalEmails.id, id), columns: { status: true, nextAttemptAt: true } });
    const dueIn = current?.status === 'queued' && current.nextAttemptAt ? Date.parse(current.nextAttemptAt) - now.getTime() : 0;
    return dueIn > 1000 ? Math.min(43_200, Math.ceil(dueIn / 1000)) : undefined;
  }
  const [[found], [recipient], [posterRow]] = await db.batch([
    // Columns of distinct names only: a batch's rows are objects (see proposals/accept.ts).
    db.select({ proposal: proposals, gigTitle: gigs.title }).from(proposals).innerJoin(gigs, eq(gigs.id, proposals.gigId)).where(eq(proposals.id, claimed.proposalId)),
    db.select({ email: users.email, locale: workspaces.locale }).from(users).innerJoin(workspaces, eq(workspaces.id, claimed.workspaceId)).where(eq(users.id, claimed.userId)),
    db.select({ name: workspaces.name, issuer: workspaces.issuer }).from(workspaces).innerJoin(gigs, eq(gigs.workspaceId, workspaces.id)).innerJoin(proposals, eq(proposals.gigId, gigs.id)).where(eq(proposals.id, claimed.proposalId)),
  ]);
  let error: string | null = null;
  if (found && recipient && posterRow) {
    const poster = issuerOf(posterRow).legal_name ?? posterRow.name;
    const email = composeProposalEmail({ kind: claimed.kind, proposal: found.proposal, gig: { id: found.proposal.gigId, title: found.gigTitle }, locale: recipient.locale, poster });
    const result = await sendEmail(env, { ...email, to: [recipient.email], cc: [] });
    error = result.ok ? null : result.error;
  } else {
    error = 'The proposal or its recipient no longer exists.';
  }
  const attempts = claimed.attempts + 1;
  const delay = error && found && attempts < MAX_EMAIL_ATTEMPTS ? EMAIL_RETRY_DELAYS_MS[attempts - 1]! : null;
  const at = new Date();
  const [updated] = await db
    .update(proposalEmails)
    .set({
      status: !error ? 'sent' : delay === null ? 'failed' : 'queued', attempts, lastError: error, sentAt: error ? null : at.toISOString(),
      nextAttemptAt: delay === null ? null : new Date(at.getTime() + delay).toISOString(), leaseUntil: null,
    })
    .where(and(eq(proposalEmails.id, id), eq(proposalEmails.leaseUntil, leaseUntil)))
    .returning({ id: proposalEmails.id });
  if (error) console.warn(JSON.stringify({ level: 'warn', message: 'proposal email attempt failed', delivery_id: id, attempts, error }));
  if (updated && delay !== null) await enqueueProposalEmails(env, [id], Math.ceil(delay / 1000));
}

/** Cron: proposal emails queued for more than two minutes that no one holds go on the queue again. */
export async function sweepProposalEmails(env: Env, now = new Date(), limit = 200): Promise<number> {
  const db = createDb(databaseBinding(env, DIRECTORY));
  const at = now.toISOString();
  const overdue = new Date(now.getTime() - 2 * 60_000).toISOString();
  const rows = await db
    .select({ id: proposalEmails.id })
    .from(proposalEmails)
    .where(and(eq(proposalEmails.status, 'queued'), lte(proposalEmails.nextAttemptAt, overdue), or(isNull(proposalEmails.leaseUntil), lt(proposalEmails.leaseUntil, at))))
    .limit(limit);
  await enqueueProposalEmails(env, rows.map((row) => row.id));
  return rows.length;
}
