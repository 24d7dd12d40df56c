// POST /api/workspaces: a new workspace (a studio, a side business), owned by its creator, with a
// first key that acts in it. One batch: the workspace, the owner's membership and the key.
import { memberships, workspaces, apiKeys } from '../../db/schema';
import type { ServiceContext } from '../../lib/context';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { mintKey } from '../access/api-keys';
import type { WorkspaceRow } from './settings';

export async function createWorkspace(ctx: ServiceContext, name: string) {
  const now = nowIso();
  const workspace: WorkspaceRow = {
    id: newId('workspace'), name, personalUserId: null, invoiceSeq: 0, invoicePrefix: 'INV-', timeZone: 'UTC', locale: 'en-US',
    issuer: null, paymentInstructions: null, remindersEnabled: false, reminderDays: '[3,10]', createdAt: now, updatedAt: now,
  };
  const key = await mintKey(ctx.userId, workspace.id, `${name} key`.slice(0, 100));
  await ctx.db.batch([
    ctx.db.insert(workspaces).values(workspace),
    ctx.db.insert(memberships).values({ id: newId('membership'), workspaceId: workspace.id, userId: ctx.userId, role: 'owner', createdAt: now }),
    ctx.db.insert(apiKeys).values(key.row),
  ]);
  return { workspace, key };
}
