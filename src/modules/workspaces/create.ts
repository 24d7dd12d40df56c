// POST /api/workspaces: a new workspace (a studio, a side business), owned by its creator, with a
// first key that acts in it. One directory batch: the workspace, the owner's membership and the key.
// Its records go to the database placeNewWorkspace picks (lib/databases.ts); when that is not DB,
// the copies the records' foreign keys need (mirror.ts) are written there first, so the workspace
// is usable the moment the directory lists it. Should the directory batch fail, the copies are
// orphans nobody can reach, and a retry (a new id) places afresh.
import { eq } from 'drizzle-orm';
import { memberships, users, workspaces, apiKeys } from '../../db/schema';
import type { ServiceContext } from '../../lib/context';
import { databaseBinding, placeNewWorkspace } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { mintKey } from '../access/api-keys';
import { mirrorUser, mirrorWorkspace } from './mirror';
import type { WorkspaceRow } from './settings';

export async function createWorkspace(ctx: ServiceContext, name: string) {
  const now = nowIso();
  const id = newId('workspace');
  const workspace: WorkspaceRow = {
    id, name, personalUserId: null, invoiceSeq: 0, invoicePrefix: 'INV-', timeZone: 'UTC', locale: 'en-US',
    issuer: null, paymentInstructions: null, remindersEnabled: false, reminderDays: '[3,10]', createdAt: now, updatedAt: now, taxRounding: 'line',
    database: placeNewWorkspace(ctx.env, id),
  };
  if (workspace.database) {
    const owner = await ctx.directory.query.users.findFirst({ where: eq(users.id, ctx.userId) });
    const target = createDb(databaseBinding(ctx.env, workspace.database));
    await target.batch([mirrorWorkspace(target, workspace), mirrorUser(target, owner!)]);
  }
  const key = await mintKey(ctx.userId, workspace.id, `${name} key`.slice(0, 100));
  await ctx.directory.batch([
    ctx.directory.insert(workspaces).values(workspace),
    ctx.directory.insert(memberships).values({ id: newId('membership'), workspaceId: workspace.id, userId: ctx.userId, role: 'owner', createdAt: now }),
    ctx.directory.insert(apiKeys).values(key.row),
  ]);
  return { workspace, key };
}
