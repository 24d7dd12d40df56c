// Invitations, all redeemed through POST /api/invitations/accept:
// - signup (the operator invites a new email): accepting creates the user, their personal
//   workspace and its owner key;
// - recovery (the operator invites an email that has an account): accepting issues a new owner key
//   for that account's personal workspace, the way back in for someone who lost every key;
// - workspace (an admin invites someone with a role): accepting adds the membership (creating the
//   user and their personal workspace first when the email is new) and a key for that workspace.
//   Its code goes only to the invitee, by email (invitation-email.ts): the inviter never sees it.
//   When the email already has an account, accepting also needs one of that account's keys, so
//   whoever can invite an address can never act as the person behind it. The invitation lives only
//   while its inviter may still issue it (an admin, an owner for an owner invitation): a guard in
//   the accepting batch, and withdrawal when the inviter is removed or demoted (workspaces/members.ts).
// KV holds the token (invite:v1:<hash of code> → invitation id) for the lookup; D1 holds the truth
// and makes redemption single-use: one batch whose statements each act only if the one that
// accepts the invitation did, so of a dozen racing redemptions exactly one gets a key.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { apiKeys, invitations, memberships, users, waitlist, workspaces, type Role } from '../../db/schema';
import { ApiError, invalidField, notFound, unauthorized } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { databaseOf, DIRECTORY } from '../../lib/databases';
import type { Db } from '../../lib/db';
import { changedRows, insertIf } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { relayEventsOf } from '../events/relay';
import { serializeMember } from './member';
import { mintKey } from './api-keys';
import { workspaceInvitationCode } from './invitation-code';
import { enqueueInvitationEmail, queuedEmail } from './invitation-email';

export type InvitationRow = typeof invitations.$inferSelect;

const kvKey = (codeHash: string) => `invite:v1:${codeHash}`;
const DAY_MS = 86_400_000;
export const DEFAULT_INVITATION_DAYS = 7;

/** The personal workspace and the user share a ULID (usr_X, wsp_X), as migration 0006 made them. */
export const personalWorkspaceId = (userId: string) => `wsp_${userId.slice(4)}`;

type NewInvitation = Pick<InvitationRow, 'email' | 'kind' | 'workspaceId' | 'role' | 'invitedBy'> & { expiresInDays: number };

/**
 * Stores an invitation (code hashed) and its KV token. The operator's invitations get a random code,
 * returned to the operator; a workspace invitation's code is derived from its id and only emailed.
 */
export async function issueInvitation(env: Env, db: Db, input: NewInvitation) {
  const id = newId('invitation');
  const emailed = input.kind === 'workspace';
  const code = emailed ? await workspaceInvitationCode(env, id) : `wsi_${randomToken(24)}`;
  const codeHash = await sha256Hex(code);
  const now = new Date();
  const row: InvitationRow = {
    id,
    email: input.email,
    codeHash,
    kind: input.kind,
    workspaceId: input.workspaceId,
    role: input.role,
    invitedBy: input.invitedBy,
    expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString(),
    createdAt: now.toISOString(),
    acceptedAt: null,
    acceptedBy: null,
    withdrawnAt: null,
    emailStatus: null, emailAttempts: 0, emailError: null, emailNextAttemptAt: null, emailLeaseUntil: null,
    ...(emailed ? queuedEmail() : {}),
    acceptKeyHash: null, acceptRequestHash: null, acceptedKeyId: null,
  };
  await db.batch([
    db.insert(invitations).values(row),
    db.update(waitlist).set({ status: 'invited', updatedAt: row.createdAt }).where(and(eq(waitlist.email, input.email), eq(waitlist.status, 'waiting'))),
  ]);
  await env.INVITES_KV.put(kvKey(codeHash), row.id, { expirationTtl: input.expiresInDays * 86_400 });
  if (emailed) await enqueueInvitationEmail(env, row.id);
  return { row, code: emailed ? null : code };
}

export async function forgetInvitationToken(kv: KVNamespace, row: InvitationRow) {
  await kv.delete(kvKey(row.codeHash));
}

/** The operator's invitation: `signup` for a new email, `recovery` for one that has an account. */
export async function createOperatorInvitation(env: Env, db: Db, input: { email: string; expires_in_days: number }) {
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).get();
  const { row, code } = await issueInvitation(env, db, {
    email: input.email, kind: existing ? 'recovery' : 'signup', workspaceId: null, role: null, invitedBy: null, expiresInDays: input.expires_in_days,
  });
  return { id: row.id, email: row.email, kind: row.kind as 'signup' | 'recovery', code: code!, expires_at: row.expiresAt };
}

type Accepted = {
  user: typeof users.$inferSelect;
  workspace: { id: string; name: string; role: Role };
  /** The database of the workspace's records (lib/databases.ts). */
  database: string;
  key: { key: string | null; row: typeof apiKeys.$inferSelect };
};

/** Who presented a key with the acceptance (null: no Authorization header). */
export type Caller = { userId: string } | null;

/** An acceptance sent with an Idempotency-Key: the hashes it is remembered by. */
export type AcceptIdempotency = { keyHash: string; requestHash: string };

export type AcceptOutcome = Accepted & { replayed: boolean };

export async function acceptInvitation(
  env: Env, db: Db, input: { code: string; name?: string | undefined }, caller: Caller, idempotency?: AcceptIdempotency,
): Promise<AcceptOutcome> {
  const codeHash = await sha256Hex(input.code);
  // KV is eventually consistent, so a miss falls back to D1, the record of truth.
  const invitationId = (await env.INVITES_KV.get(kvKey(codeHash))) ?? (await findIdByHash(db, codeHash));
  const invitation = invitationId ? await db.query.invitations.findFirst({ where: eq(invitations.id, invitationId) }) : undefined;
  if (!invitation || invitation.withdrawnAt) throw notFound('Invitation');
  const existing = await db.query.users.findFirst({ where: eq(users.email, invitation.email) });
  if (existing && invitation.kind === 'workspace' && !(await madeByThisAcceptance(db, invitation, existing, idempotency))) {
    requireAccountHolder(existing.id, caller);
  }
  if (invitation.acceptedAt) {
    const replay = idempotency && (await replayOf(db, invitation, idempotency));
    if (replay) return replay;
    throw used();
  }
  const now = nowIso();
  if (invitation.expiresAt <= now) throw expired();

  let accepted: Accepted;
  try {
    accepted = existing
      ? await acceptAsExistingUser(env, db, invitation, existing, now, idempotency)
      : await acceptAsNewUser(env, db, invitation, input.name, now, idempotency);
  } catch (err) {
    // Two requests with the same key at once: the one that lost replays what the winner made.
    const replay = idempotency && err instanceof ApiError && err.code === 'invitation_used' && (await replayOf(db, invitation, idempotency));
    if (replay) return replay;
    throw err;
  }
  // Joining a workspace whose records are on another database: member.added, written in the
  // directory's batch, moves there with a copy of the new member's user row (events/relay.ts).
  await relayEventsOf(env, accepted.workspace.id, accepted.database);
  await forgetInvitationToken(env.INVITES_KV, invitation);
  return { ...accepted, replayed: false };
}

/**
 * Whether `user` is the account this invitation's own acceptance created: a keyed retry of that
 * acceptance is a replay, not someone claiming an existing account (its answer, with the only key,
 * may be what was lost). Read again when it looks unaccepted: a retry racing the first request can
 * read the invitation before that batch and the user after it.
 */
async function madeByThisAcceptance(db: Db, invitation: InvitationRow, user: typeof users.$inferSelect, idempotency?: AcceptIdempotency) {
  if (!idempotency) return false;
  const latest = invitation.acceptedAt ? invitation : await db.query.invitations.findFirst({ where: eq(invitations.id, invitation.id) });
  return latest?.acceptedBy === user.id && latest.acceptedAt === user.createdAt;
}

/** A workspace invitation to an email that has an account: only that account may take it. */
function requireAccountHolder(userId: string, caller: Caller) {
  if (!caller) {
    throw unauthorized('This email already has an account: accept with one of its API keys as `Authorization: Bearer wsk_…`.');
  }
  if (caller.userId !== userId) throw new ApiError('forbidden', 'This invitation is for another account: accept it with a key of the invited account.');
}

const REPLAY_MS = 24 * 60 * 60 * 1000;

/** The first answer again, when this acceptance repeats the one that redeemed the invitation within 24 h. */
async function replayOf(db: Db, invitation: InvitationRow, idempotency: AcceptIdempotency): Promise<AcceptOutcome | undefined> {
  const latest = await db.query.invitations.findFirst({ where: eq(invitations.id, invitation.id) });
  if (!latest?.acceptedAt || latest.acceptKeyHash !== idempotency.keyHash) return undefined;
  if (Date.parse(latest.acceptedAt) + REPLAY_MS < Date.now()) return undefined;
  if (latest.acceptRequestHash !== idempotency.requestHash) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request.');
  }
  const [user, key] = await Promise.all([
    db.query.users.findFirst({ where: eq(users.id, latest.acceptedBy ?? '') }),
    db.query.apiKeys.findFirst({ where: eq(apiKeys.id, latest.acceptedKeyId ?? '') }),
  ]);
  if (!user || !key) return undefined;
  const joined = latest.kind === 'workspace' ? await invitedWorkspace(db, latest, { evenIfInviterLeft: true }) : await personalWorkspaceOf(db, user.id);
  // The key's secret was shown once and is stored only hashed: a replay has it null.
  return { user, workspace: { id: joined.id, name: joined.name, role: joined.role }, database: joined.database, key: { key: null, row: key }, replayed: true };
}

/** The invitation is still open: the guard every acceptance is written under. */
const stillOpen = (invitation: InvitationRow, now: string) =>
  and(
    eq(invitations.id, invitation.id), isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt), gt(invitations.expiresAt, now),
    invitation.kind === 'workspace' ? inviterMayIssue(invitation) : undefined,
  );

/** The roles that may issue an invitation with `role` (§9: admins; owners for an owner invitation). */
const issuingRoles = (role: Role | null): Role[] => (role === 'owner' ? ['owner'] : ['admin', 'owner']);

/** The inviter is still a member who may issue this invitation (removed or demoted: it died with that right). */
const inviterMayIssue = (invitation: InvitationRow) =>
  sql`EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = ${invitation.workspaceId} AND m.user_id = ${invitation.invitedBy}
    AND m.role IN (${sql.join(issuingRoles(invitation.role).map((r) => sql`${r}`), sql`, `)}))`;

/** What an acceptance records on the invitation: who, when, and what a keyed retry replays. */
const acceptance = (now: string, userId: string, keyId: string, idempotency?: AcceptIdempotency) => ({
  acceptedAt: now, acceptedBy: userId, acceptedKeyId: keyId,
  acceptKeyHash: idempotency?.keyHash ?? null, acceptRequestHash: idempotency?.requestHash ?? null,
});

const acceptedBy = (invitation: InvitationRow, userId: string) =>
  sql`EXISTS (SELECT 1 FROM invitations WHERE id = ${invitation.id} AND accepted_by = ${userId})`;

async function acceptAsNewUser(
  env: Env, db: Db, invitation: InvitationRow, name: string | undefined, now: string, idempotency?: AcceptIdempotency,
): Promise<Accepted> {
  if (invitation.kind === 'recovery') throw notFound('Account'); // its account was deleted meanwhile
  if (!name) throw invalidField('name', 'Your name is required to create your account.');
  const user = { id: newId('user'), email: invitation.email, name, invoiceSeq: 0, createdAt: now };
  const personal = { id: personalWorkspaceId(user.id), name, personalUserId: user.id, createdAt: now, updatedAt: now };
  const joined = invitation.kind === 'workspace' ? await invitedWorkspace(db, invitation) : { id: personal.id, name, role: 'owner' as const, database: DIRECTORY };
  const key = await mintKey(user.id, joined.id, 'Default key');
  const made = acceptedBy(invitation, user.id);
  const openAndNew = and(
    sql`EXISTS (SELECT 1 FROM invitations WHERE ${stillOpen(invitation, now)})`,
    sql`NOT EXISTS (SELECT 1 FROM users WHERE email = ${user.email})`,
  )!;
  const ctx: WorkspaceContext = { db, env, workspaceId: joined.id, timeZone: 'UTC', actor: { type: 'user', id: user.id, name } };
  const member = { id: newId('membership'), workspaceId: joined.id, userId: user.id, role: joined.role, createdAt: now };
  const results = await db.batch([
    insertIf(db, users, user, openAndNew),
    db.update(invitations).set(acceptance(now, user.id, key.row.id, idempotency)).where(and(stillOpen(invitation, now), sql`EXISTS (SELECT 1 FROM users WHERE id = ${user.id})`)),
    insertIf(db, workspaces, personal, made),
    insertIf(db, memberships, { id: `mem_${user.id.slice(4)}`, workspaceId: personal.id, userId: user.id, role: 'owner', createdAt: now }, made),
    ...(invitation.kind === 'workspace'
      ? [
          insertIf(db, memberships, member, made),
          recordEvent(ctx, 'member.added', serializeMember({ ...member, name, email: user.email }), { ifChanged: true }),
        ]
      : []),
    insertIf(db, apiKeys, key.row, made),
    db.update(waitlist).set({ status: 'joined', updatedAt: now }).where(and(eq(waitlist.email, user.email), made)),
  ]);
  if (changedRows(results[0]) === 0) throw await whyNotAccepted(db, invitation);
  return { user, workspace: { id: joined.id, name: joined.name, role: joined.role }, database: joined.database, key };
}

async function acceptAsExistingUser(
  env: Env, db: Db, invitation: InvitationRow, user: typeof users.$inferSelect, now: string, idempotency?: AcceptIdempotency,
): Promise<Accepted> {
  const joined = invitation.kind === 'workspace'
    ? await invitedWorkspace(db, invitation)
    : await personalWorkspaceOf(db, user.id); // signup for an email that has joined since, or recovery
  const key = await mintKey(user.id, joined.id, invitation.kind === 'recovery' ? 'Recovery key' : 'Default key');
  const ctx: WorkspaceContext = { db, env, workspaceId: joined.id, timeZone: 'UTC', actor: { type: 'user', id: user.id, name: user.name } };
  const member = { id: newId('membership'), workspaceId: joined.id, userId: user.id, role: joined.role, createdAt: now };
  const notYetMember = sql`NOT EXISTS (SELECT 1 FROM memberships WHERE workspace_id = ${joined.id} AND user_id = ${user.id})`;
  const results = await db.batch([
    db
      .update(invitations)
      .set(acceptance(now, user.id, key.row.id, idempotency))
      .where(and(stillOpen(invitation, now), invitation.kind === 'workspace' ? notYetMember : undefined)),
    // Joining adds the membership (and says so); recovery restores the owner's membership of their
    // personal workspace if they had stepped out of it.
    insertIf(db, memberships, member, and(acceptedBy(invitation, user.id), notYetMember)!),
    ...(invitation.kind === 'workspace' ? [recordEvent(ctx, 'member.added', serializeMember({ ...member, name: user.name, email: user.email }), { ifChanged: true })] : []),
    insertIf(db, apiKeys, key.row, acceptedBy(invitation, user.id)),
  ]);
  if (changedRows(results[0]) === 0) throw await whyNotAccepted(db, invitation, user.id);
  return { user, workspace: { id: joined.id, name: joined.name, role: joined.role }, database: joined.database, key };
}

async function invitedWorkspace(db: Db, invitation: InvitationRow, { evenIfInviterLeft = false } = {}) {
  const row = await db.select({ id: workspaces.id, name: workspaces.name, database: workspaces.database }).from(workspaces).where(eq(workspaces.id, invitation.workspaceId!)).get();
  if (!row) throw notFound('Invitation'); // the workspace is gone
  if (!evenIfInviterLeft && !(await inviterStillMayIssue(db, invitation))) throw notFound('Invitation');
  return { id: row.id, name: row.name, role: invitation.role!, database: databaseOf(row) };
}

async function inviterStillMayIssue(db: Db, invitation: InvitationRow): Promise<boolean> {
  if (!invitation.invitedBy) return false;
  const member = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, invitation.workspaceId!), eq(memberships.userId, invitation.invitedBy)))
    .get();
  return member !== undefined && issuingRoles(invitation.role).includes(member.role);
}

async function personalWorkspaceOf(db: Db, userId: string) {
  const row = await db.select({ id: workspaces.id, name: workspaces.name, database: workspaces.database }).from(workspaces).where(eq(workspaces.personalUserId, userId)).get();
  if (!row) throw notFound('Workspace');
  return { id: row.id, name: row.name, role: 'owner' as const, database: databaseOf(row) };
}

/** Why a guarded acceptance wrote nothing: someone redeemed it first, it ran out, or it was withdrawn. */
async function whyNotAccepted(db: Db, invitation: InvitationRow, userId?: string): Promise<ApiError> {
  const latest = await db.query.invitations.findFirst({ where: eq(invitations.id, invitation.id) });
  if (!latest || latest.withdrawnAt) return notFound('Invitation');
  if (latest.acceptedAt) return used();
  if (latest.kind === 'workspace' && !(await inviterStillMayIssue(db, latest))) return notFound('Invitation');
  if (latest.expiresAt <= nowIso()) return expired();
  if (userId && invitation.kind === 'workspace') return new ApiError('conflict', 'You are already a member of this workspace.');
  return new ApiError('conflict', 'An account with this email already exists; ask for a new invitation.');
}

async function findIdByHash(db: Db, codeHash: string): Promise<string | null> {
  const row = await db.select({ id: invitations.id }).from(invitations).where(eq(invitations.codeHash, codeHash)).get();
  return row?.id ?? null;
}

const used = () => new ApiError('invitation_used', 'This invitation has already been used.');
const expired = () => new ApiError('invitation_expired', 'This invitation has expired; ask for a new one.');

export const serializeUser = (row: typeof users.$inferSelect) => ({
  id: row.id,
  email: row.email,
  name: row.name,
  created_at: row.createdAt,
});
