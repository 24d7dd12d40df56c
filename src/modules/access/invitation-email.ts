// The email that carries a workspace invitation's code to the invitee, the only place the code
// goes. Its state lives on the invitation row (queued, sent, failed; attempts; last error): queued
// in the batch that issues the invitation, claimed under a lease by the emails consumer (a duplicate
// message finds it taken or sent), retried on the invoice emails' schedule, and re-queued by the cron
// sweep when its message was lost. An invitation withdrawn, accepted or expired meanwhile is not sent.
import { and, eq, gt, isNull, lt, lte, or } from 'drizzle-orm';
import { html } from 'hono/html';
import { invitations, users, workspaces } from '../../db/schema';
import { createDb } from '../../lib/db';
import { nowIso } from '../../lib/time';
import { EMAIL_RETRY_DELAYS_MS, MAX_EMAIL_ATTEMPTS } from '../emails/schedule';
import { sendEmail } from '../emails/providers';
import { workspaceInvitationCode } from './invitation-code';

const LEASE_MS = 60_000;

export async function enqueueInvitationEmail(env: Env, invitationId: string, delaySeconds = 0): Promise<void> {
  await env.EMAILS_QUEUE.send({ invitation_id: invitationId }, { delaySeconds }).catch((err) =>
    console.warn(JSON.stringify({ level: 'warn', message: 'invitation email not enqueued; the sweep will send it', invitation_id: invitationId, reason: String(err) })),
  );
}

const pending = (now: string) => and(isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt), gt(invitations.expiresAt, now));

/** One attempt at the invitation's email; returns seconds to wait when the message came early. */
export async function attemptInvitationEmail(env: Env, invitationId: string): Promise<number | void> {
  const db = createDb(env.DB);
  const now = new Date();
  const at = now.toISOString();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const [row] = await db
    .update(invitations)
    .set({ emailLeaseUntil: leaseUntil })
    .where(
      and(
        eq(invitations.id, invitationId),
        eq(invitations.emailStatus, 'queued'),
        pending(at),
        lte(invitations.emailNextAttemptAt, new Date(now.getTime() + 1000).toISOString()),
        or(isNull(invitations.emailLeaseUntil), lte(invitations.emailLeaseUntil, at)),
      ),
    )
    .returning();
  if (!row) {
    const current = await db.query.invitations.findFirst({ where: eq(invitations.id, invitationId) });
    const dueIn = current?.emailStatus === 'queued' && current.emailNextAttemptAt ? Date.parse(current.emailNextAttemptAt) - now.getTime() : 0;
    return dueIn > 1000 ? Math.min(43_200, Math.ceil(dueIn / 1000)) : undefined;
  }
  const [workspace, inviter] = await Promise.all([
    db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, row.workspaceId!)).get(),
    row.invitedBy ? db.select({ name: users.name }).from(users).where(eq(users.id, row.invitedBy)).get() : undefined,
  ]);
  const code = await workspaceInvitationCode(env, row.id);
  const email = composeInvitationEmail({
    code,
    workspace: workspace?.name ?? 'a workspace',
    inviter: inviter?.name ?? null,
    role: row.role!,
    expiresAt: row.expiresAt,
  });
  const result = await sendEmail(env, { ...email, to: [row.email], cc: [] });
  const attempts = row.emailAttempts + 1;
  // An email service may echo the request in its error; the code must not reach the log or the
  // inviter (who reads last_error on the pending invitation).
  const error = result.ok ? null : result.error.replaceAll(code, 'wsi_…');
  const delay = error && attempts < MAX_EMAIL_ATTEMPTS ? EMAIL_RETRY_DELAYS_MS[attempts - 1]! : null;
  const [updated] = await db
    .update(invitations)
    .set({
      emailStatus: !error ? 'sent' : delay === null ? 'failed' : 'queued',
      emailAttempts: attempts,
      emailError: error,
      emailNextAttemptAt: delay === null ? null : new Date(Date.now() + delay).toISOString(),
      emailLeaseUntil: null,
    })
    .where(and(eq(invitations.id, row.id), eq(invitations.emailLeaseUntil, leaseUntil)))
    .returning({ id: invitations.id });
  if (error) console.warn(JSON.stringify({ level: 'warn', message: 'invitation email attempt failed', invitation_id: row.id, attempts, error }));
  if (updated && delay !== null) await enqueueInvitationEmail(env, row.id, Math.ceil(delay / 1000));
}

type InvitationEmail = { code: string; workspace: string; inviter: string | null; role: string; expiresAt: string };

export function composeInvitationEmail(input: InvitationEmail) {
  const who = input.inviter ?? 'Someone';
  const subject = `${who} invited you to ${input.workspace}`;
  const lead = `${who} invited you to join the workspace ${input.workspace} as ${input.role === 'admin' ? 'an' : 'a'} ${input.role}.`;
  const how = 'Accept it with POST /api/invitations/accept and the code below (with your name if you are new here; if you already have an account, send one of your API keys as Authorization: Bearer).';
  const expires = `The invitation expires on ${input.expiresAt.slice(0, 10)}. If you did not expect it, ignore this email.`;
  const text = [lead, '', how, '', `Invitation code: ${input.code}`, '', expires].join('\n');
  const body = html`<!doctype html>
<html lang="en"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
<p>${lead}</p>
<p>${how}</p>
<p>Invitation code: <code style="font-size:1.1em">${input.code}</code></p>
<p style="color:#5b6270">${expires}</p>
</body></html>`;
  return { subject, html: String(body), text };
}

/** Cron: invitation emails queued for more than two minutes that no one holds go on the queue again. */
export async function sweepInvitationEmails(env: Env, now = new Date(), limit = 200): Promise<number> {
  const db = createDb(env.DB);
  const at = now.toISOString();
  const overdue = new Date(now.getTime() - 2 * 60_000).toISOString();
  const rows = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.emailStatus, 'queued'),
        lte(invitations.emailNextAttemptAt, overdue),
        pending(at),
        or(isNull(invitations.emailLeaseUntil), lt(invitations.emailLeaseUntil, at)),
      ),
    )
    .limit(limit);
  for (const row of rows) await enqueueInvitationEmail(env, row.id);
  return rows.length;
}

/** Marks an invitation's email as queued now (for the batch that issues it). */
export const queuedEmail = () => ({ emailStatus: 'queued' as const, emailAttempts: 0, emailNextAttemptAt: nowIso() });
