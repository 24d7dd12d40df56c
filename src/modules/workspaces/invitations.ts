// Invitations into a workspace, managed by its admins: issued with a role (owner only by an owner),
// listed while pending (never with their codes), withdrawn at will. Accepted through the public
// POST /api/invitations/accept (modules/access/invitations.ts).
import { and, desc, eq, gt, isNull, lt } from 'drizzle-orm';
import { invitations, memberships, users } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { hasRole, type ServiceContext } from '../../lib/context';
import { nowIso } from '../../lib/time';
import { DEFAULT_INVITATION_DAYS, forgetInvitationToken, type InvitationRow, issueInvitation } from '../access/invitations';
import type { CreateWorkspaceInvitationInput } from './types';

export const serializeWorkspaceInvitation = (row: InvitationRow) => ({
  id: row.id,
  email: row.email,
  role: row.role!,
  expires_at: row.expiresAt,
  created_at: row.createdAt,
  // The invitation's email (the only way its code travels), so an admin can see it went out; null
  // for an invitation issued before codes were emailed.
  email_delivery: row.emailStatus ? { status: row.emailStatus, attempts: row.emailAttempts, last_error: row.emailError } : null,
});

export async function inviteToWorkspace(ctx: ServiceContext, input: CreateWorkspaceInvitationInput) {
  if (input.role === 'owner' && !hasRole(ctx.role, 'owner')) {
    throw new ApiError('forbidden', 'Inviting an owner needs the owner role in this workspace.');
  }
  const member = await ctx.directory
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, ctx.workspaceId), eq(users.email, input.email)))
    .get();
  if (member) throw new ApiError('conflict', `${input.email} is already a member of this workspace.`);
  const { row } = await issueInvitation(ctx.env, ctx.directory, {
    email: input.email,
    kind: 'workspace',
    workspaceId: ctx.workspaceId,
    role: input.role,
    invitedBy: ctx.userId,
    expiresInDays: input.expires_in_days ?? DEFAULT_INVITATION_DAYS,
  });
  return serializeWorkspaceInvitation(row);
}

/** Invitations not yet accepted, withdrawn or expired, newest first. */
export async function listPendingInvitations(ctx: ServiceContext, limit: number, beforeId?: string) {
  return ctx.directory
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.workspaceId, ctx.workspaceId),
        isNull(invitations.acceptedAt),
        isNull(invitations.withdrawnAt),
        gt(invitations.expiresAt, nowIso()),
        beforeId ? lt(invitations.id, beforeId) : undefined,
      ),
    )
    .orderBy(desc(invitations.id))
    .limit(limit + 1);
}

/** Withdraws a pending invitation: its code answers 404 from now on. */
export async function withdrawInvitation(ctx: ServiceContext, id: string): Promise<void> {
  const [row] = await ctx.directory
    .update(invitations)
    .set({ withdrawnAt: nowIso() })
    .where(and(eq(invitations.id, id), eq(invitations.workspaceId, ctx.workspaceId), isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt)))
    .returning();
  if (row) {
    await forgetInvitationToken(ctx.env.INVITES_KV, row);
    return;
  }
  const existing = await ctx.directory.query.invitations.findFirst({ where: and(eq(invitations.id, id), eq(invitations.workspaceId, ctx.workspaceId)) });
  if (!existing || existing.withdrawnAt) throw notFound('Invitation');
  throw new ApiError('invalid_state', 'This invitation has been accepted already; remove the member instead.');
}
