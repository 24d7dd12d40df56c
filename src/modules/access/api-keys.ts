// API keys: `wsk_` + 43 characters of base64url randomness, shown once and stored as a SHA-256 hash.
// A key belongs to one user and acts in one workspace, with the role its user has there. Looking
// a presented key up is the auth middleware's (middleware/key-lookup.ts).
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { apiKeys } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { inWorkspace, type ServiceContext } from '../../lib/context';
import { forgetKey } from '../../middleware/key-lookup';
import { sha256Hex, randomToken } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';

export const KEY_PREFIX = 'wsk_';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export const serializeKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  workspace_id: row.workspaceId,
  created_at: row.createdAt,
  revoked_at: row.revokedAt,
});

/** A new key's secret, its hash, and the row to insert (the caller decides how to write it). */
export async function mintKey(userId: string, workspaceId: string, name: string) {
  const key = KEY_PREFIX + randomToken(32);
  const row: ApiKeyRow = {
    id: newId('key'),
    userId,
    workspaceId,
    name,
    prefix: key.slice(0, 12),
    keyHash: await sha256Hex(key),
    createdAt: nowIso(),
    revokedAt: null,
  };
  return { key, row };
}

/** A new key for the caller, acting in the caller's workspace. */
export async function createKey(ctx: ServiceContext, name: string) {
  const { key, row } = await mintKey(ctx.userId, ctx.workspaceId, name);
  await ctx.directory.insert(apiKeys).values(row);
  return { ...serializeKey(row), key };
}

/** The caller's own keys in the caller's workspace. */
export async function listKeys(ctx: ServiceContext, limit: number, beforeId?: string) {
  return ctx.directory
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, ctx.userId), inWorkspace(ctx, apiKeys), beforeId ? lt(apiKeys.id, beforeId) : undefined))
    .orderBy(desc(apiKeys.id))
    .limit(limit + 1);
}

/**
 * Revokes one of the caller's own keys. The caller's last active key (one whose membership still
 * stands, over all their workspaces) is kept: revoking it would lock the account out. The check is
 * part of the UPDATE, so two last-but-one keys revoked at once cannot both go.
 */
export async function revokeKey(ctx: ServiceContext, keyId: string): Promise<void> {
  const own = and(eq(apiKeys.id, keyId), eq(apiKeys.userId, ctx.userId));
  const [row] = await ctx.directory
    .update(apiKeys)
    .set({ revokedAt: nowIso() })
    .where(and(own, isNull(apiKeys.revokedAt), sql`(${activeKeyCount(ctx.userId)}) > 1`))
    .returning({ keyHash: apiKeys.keyHash });
  if (row) {
    forgetKey(row.keyHash);
    return;
  }
  const existing = await ctx.directory.query.apiKeys.findFirst({ where: own });
  if (!existing) throw notFound('API key');
  // Revoking a revoked key again changes nothing and is fine.
  if (!existing.revokedAt) throw new ApiError('conflict', 'This is your last active key: create another one first, so you are not locked out.');
}

/** How many of the user's keys still work: not revoked, and their membership still stands. */
const activeKeyCount = (userId: string) => sql`
  SELECT count(*) FROM api_keys k JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
  WHERE k.user_id = ${userId} AND k.revoked_at IS NULL`;

