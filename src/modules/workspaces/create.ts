// POST /api/workspaces: a new workspace (a studio, a side business), owned by its creator, with a
// first key that acts in it. One directory batch: the workspace, the owner's membership and the key.
// Its records go to the database placeNewWorkspace picks (lib/databases.ts); when that is not DB,
// the copies the records' foreign keys need (mirror.ts) are written there first, so the workspace
// is usable the moment the directory lists it. Should the directory batch fail, the copies are
// orphans nobody can reach, and a retry (a new id) places afresh.
import { and, count, eq, sql } from 'drizzle-orm';
import { memberships, users, workspaces, apiKeys } from '../../db/schema';
import { ApiError } from '../../errors';
import type { ServiceContext } from '../../lib/context';
import { databaseBinding, placeNewWorkspace } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { changedRows, insertIf } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { mintKey } from '../access/api-keys';
import { mirrorUser, mirrorWorkspace } from './mirror';
import type { WorkspaceRow } from './settings';

/** How many workspaces one person may own, their personal one included (§7): quotas follow the person. */
export const MAX_OWNED_WORKSPACES = 10;

const ownsTooMany = () =>
  new ApiError('conflict', `You own ${MAX_OWNED_WORKSPACES} workspaces already, the most one person may own: hand one over or use one you have.`);

/** Fewer than the limit of workspaces owned by `userId`: the guard the new workspace is written under. */
const ownsFewerThanLimit = (userId: string) =>
  sql`(SELECT count(*) FROM memberships WHERE user_id = ${userId} AND role = 'owner') < ${MAX_OWNED_WORKSPACES}`;

export async function createWorkspace(ctx: ServiceContext, name: string) {
  const owned = await ctx.directory.select({ n: count() }).from(memberships).where(and(eq(memberships.userId, ctx.userId), eq(memberships.role, 'owner'))).get();
  if ((owned?.n ?? 0) >= MAX_OWNED_WORKSPACES) throw ownsTooMany();
  const now = nowIso();
  const id = newId('workspace');
  const workspace: WorkspaceRow = {
    id, name, personalUserId: null, invoiceSeq: 0, invoicePrefix: 'INV-', timeZone: 'UTC', locale: 'en-US',
    issuer: null, paymentInstructions: null, remindersEnabled: false, reminderDays: '[3,10]', defaultCurrency: 'USD', createdAt: now, updatedAt: now, taxRounding: 'line',
    database: placeNewWorkspace(ctx.env, id),
    paymentsAllowPartial: false,
    einvoicePdf: 'facturx',
    creditNoteSeq: 0, creditNotePrefix: 'CN-',
    quoteSeq: 0, quotePrefix: 'QUO-',
    numberAt: 'create',
    defaultTaxRateMilli: null, supplyType: 'services',
    accounting: null,
  };
  if (workspace.database) {
    const owner = await ctx.directory.query.users.findFirst({ where: eq(users.id, ctx.userId) });
    const target = createDb(databaseBinding(ctx.env, workspace.database));
    await target.batch([mirrorWorkspace(target, workspace), mirrorUser(target, owner!)]);
  }
  const key = await mintKey(ctx.userId, workspace.id, `${name} key`.slice(0, 100));
  // Guarded, so concurrent creations cannot pass the limit together: each later row needs the workspace.
  const made = sql`EXISTS (SELECT 1 FROM workspaces WHERE id = ${workspace.id})`;
  const [inserted] = await ctx.directory.batch([
    insertIf(ctx.directory, workspaces, workspace, ownsFewerThanLimit(ctx.userId)),
    insertIf(ctx.directory, memberships, { id: newId('membership'), workspaceId: workspace.id, userId: ctx.userId, role: 'owner', createdAt: now }, made),
    insertIf(ctx.directory, apiKeys, key.row, made),
  ]);
  if (changedRows(inserted) === 0) throw ownsTooMany();
  return { workspace, key };
}
