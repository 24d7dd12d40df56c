// GET /api/me: who the key belongs to, the workspace it acts in, and every workspace of the user.
import { eq } from 'drizzle-orm';
import { apiKeys, memberships, users, workspaces } from '../../db/schema';
import { notFound } from '../../errors';
import type { ServiceContext } from '../../lib/context';
import { serializeUser } from './invitations';

export async function whoAmI(ctx: ServiceContext) {
  const db = ctx.directory;
  const [userRows, keyRows, memberRows] = await db.batch([
    db.select().from(users).where(eq(users.id, ctx.userId)),
    db.select({ id: apiKeys.id, prefix: apiKeys.prefix, workspaceId: apiKeys.workspaceId }).from(apiKeys).where(eq(apiKeys.id, ctx.keyId)),
    db
      .select({ workspaceId: workspaces.id, name: workspaces.name, role: memberships.role })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      .where(eq(memberships.userId, ctx.userId))
      .orderBy(workspaces.id),
  ]);
  const user = userRows[0];
  const key = keyRows[0];
  const current = memberRows.find((m) => m.workspaceId === ctx.workspaceId);
  if (!user || !key || !current) throw notFound('User');
  return {
    user: serializeUser(user),
    workspace: { id: current.workspaceId, name: current.name, role: current.role },
    key: { id: key.id, prefix: key.prefix, workspace_id: key.workspaceId },
    memberships: memberRows.map((m) => ({ workspace_id: m.workspaceId, name: m.name, role: m.role })),
  };
}
