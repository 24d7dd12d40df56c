// The people of a workspace. A workspace always keeps an owner: the guard that refuses to demote
// or remove the last one is part of the same SQL statement as the change, so two owners stepping
// down at once cannot both succeed. Removing a member revokes their keys for this workspace in the
// same batch, and drops them from this isolate's key cache, so they stop working at once.
// Memberships are directory rows (on DB); their events go into the change's batch there and are then
// relayed to the workspace's database when it is another one (events/relay.ts).
import { and, asc, eq, gt, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { apiKeys, invitations, memberships, users } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { hasRole, type Role, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { forgetMemberKeys } from '../../middleware/key-lookup';
import { recordEvent } from '../events/record';
import { relayQuietly } from '../events/relay';
import { type MemberRow, serializeMember } from '../access/member';

const memberColumns = {
  id: memberships.id,
  userId: memberships.userId,
  name: users.name,
  email: users.email,
  role: memberships.role,
  createdAt: memberships.createdAt,
};

/** Oldest first: the founders lead. The cursor is the last membership id of the page. */
export async function listMembers(ctx: ServiceContext, limit: number, afterId?: string): Promise<MemberRow[]> {
  return ctx.directory
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, ctx.workspaceId), afterId ? gt(memberships.id, afterId) : undefined))
    .orderBy(asc(memberships.id))
    .limit(limit + 1);
}

export async function getMember(ctx: ServiceContext, id: string): Promise<MemberRow> {
  const [row] = await ctx.directory
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.id, id), eq(memberships.workspaceId, ctx.workspaceId)));
  if (!row) throw notFound('Member');
  return row;
}

const needs = (role: Role, what: string) => new ApiError('forbidden', `${what} needs the ${role} role or higher in this workspace.`);
const lastOwner = () =>
  new ApiError('conflict', 'A workspace keeps at least one owner: make another member owner first, then step down.');

/** True while the workspace has another owner besides `membershipId` (for the SQL guard). */
const anotherOwner = (workspaceId: string, membershipId: string) =>
  sql`EXISTS (SELECT 1 FROM memberships o WHERE o.workspace_id = ${workspaceId} AND o.role = 'owner' AND o.id != ${membershipId})`;

export async function changeRole(ctx: ServiceContext, id: string, role: Role): Promise<MemberRow> {
  const before = await getMember(ctx, id);
  // Granting or taking owner is for owners; the rest of the roles is for admins (the route's role).
  if ((role === 'owner' || before.role === 'owner') && !hasRole(ctx.role, 'owner')) throw needs('owner', 'Granting or taking the owner role');
  if (before.role === role) return before;
  const after = { ...before, role };
  const db = ctx.directory;
  const [updated] = await db.batch([
    db
      .update(memberships)
      .set({ role })
      .where(
        and(
          eq(memberships.id, id),
          eq(memberships.workspaceId, ctx.workspaceId),
          eq(memberships.role, before.role),
          before.role === 'owner' ? anotherOwner(ctx.workspaceId, id) : undefined,
        ),
      ),
    recordEvent(inDirectory(ctx), 'member.role_changed', serializeMember(after), { previous: { role: before.role }, ifChanged: true }),
    withdrawInvitationsOutOfReach(ctx, before.userId, role, sql`EXISTS (SELECT 1 FROM memberships WHERE id = ${id} AND role = ${role})`),
  ]);
  if (changedRows(updated) === 0) {
    const now = await getMember(ctx, id);
    if (now.role === 'owner' && before.role === 'owner') throw lastOwner();
    throw new ApiError('conflict', `This member's role changed meanwhile (now ${now.role}); read it again and retry.`);
  }
  forgetMemberKeys(ctx.workspaceId, before.userId);
  await relayQuietly(ctx.directory, ctx.db, ctx.workspaceId, ctx.database);
  return after;
}

/** Removes a member (an admin removing someone, or anyone leaving); their keys here stop at once. */
export async function removeMember(ctx: ServiceContext, id: string): Promise<void> {
  const before = await getMember(ctx, id);
  const leaving = before.userId === ctx.userId;
  if (!leaving && !hasRole(ctx.role, 'admin')) throw needs('admin', 'Removing another member');
  if (!leaving && before.role === 'owner' && !hasRole(ctx.role, 'owner')) throw needs('owner', 'Removing an owner');
  const now = nowIso();
  const db = ctx.directory;
  const [deleted] = await db.batch([
    db
      .delete(memberships)
      .where(and(eq(memberships.id, id), eq(memberships.workspaceId, ctx.workspaceId), or(ne(memberships.role, 'owner'), anotherOwner(ctx.workspaceId, id)))),
    recordEvent(inDirectory(ctx), 'member.removed', serializeMember(before), { ifChanged: true }),
    db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.userId, before.userId), eq(apiKeys.workspaceId, ctx.workspaceId), isNull(apiKeys.revokedAt), sql`NOT EXISTS (SELECT 1 FROM memberships WHERE id = ${id})`)),
    withdrawInvitationsOutOfReach(ctx, before.userId, null, sql`NOT EXISTS (SELECT 1 FROM memberships WHERE id = ${id})`),
  ]);
  if (changedRows(deleted) === 0) {
    await getMember(ctx, id); // 404 if someone removed them meanwhile
    throw lastOwner();
  }
  forgetMemberKeys(ctx.workspaceId, before.userId);
  await relayQuietly(ctx.directory, ctx.db, ctx.workspaceId, ctx.database);
}

/**
 * An invitation lives only while its inviter may still issue it (§9): when they are removed (role
 * null) or demoted, their pending invitations they could no longer issue are withdrawn in the same
 * batch, under `applied` (the change happened). Their codes then answer 404.
 */
function withdrawInvitationsOutOfReach(ctx: ServiceContext, inviterId: string, role: Role | null, applied: SQL) {
  // Owner invitations need an owner; the others an admin. Removed (null) or below admin: all of them.
  const dying = role === 'owner' ? sql`1 = 0` : role === 'admin' ? eq(invitations.role, 'owner') : undefined;
  return ctx.directory
    .update(invitations)
    .set({ withdrawnAt: nowIso() })
    .where(and(eq(invitations.workspaceId, ctx.workspaceId), eq(invitations.invitedBy, inviterId), isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt), dying, applied));
}

/** The context whose events go into the directory's batch (relayed afterwards, see above). */
const inDirectory = (ctx: ServiceContext): WorkspaceContext => ({ ...ctx, db: ctx.directory });
