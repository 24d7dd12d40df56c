// API keys: `wsk_` + 43 characters of base64url randomness, shown once and stored as a SHA-256 hash.
// A key belongs to one user and acts in one workspace, with the role its user has there.
// Lookups are cached in this isolate for 30 s; revoking a key, or removing or changing a member,
// drops the entries here at once, and other isolates forget them within 30 s (the contract
// promises 60 s everywhere).
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { apiKeys, memberships, users, workspaces, type Role } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { inWorkspace, type ServiceContext } from '../../lib/context';
import { sha256Hex, randomToken } from '../../lib/crypto';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';

export const KEY_PREFIX = 'wsk_';
export const KEY_PATTERN = /^wsk_[A-Za-z0-9_-]{32,128}$/;
const CACHE_TTL_MS = 30_000;

/** Who a presented key stands for. */
export type KeyPrincipal = { keyId: string; userId: string; userName: string; workspaceId: string; timeZone: string; role: Role };

type CachedKey = { principal: KeyPrincipal | null; expires: number };
const cache = new Map<string, CachedKey>();

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
  await ctx.db.insert(apiKeys).values(row);
  return { ...serializeKey(row), key };
}

/** The caller's own keys in the caller's workspace. */
export async function listKeys(ctx: ServiceContext, limit: number, beforeId?: string) {
  return ctx.db
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
  const [row] = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: nowIso() })
    .where(and(own, isNull(apiKeys.revokedAt), sql`(${activeKeyCount(ctx.userId)}) > 1`))
    .returning({ keyHash: apiKeys.keyHash });
  if (row) {
    cache.delete(row.keyHash);
    return;
  }
  const existing = await ctx.db.query.apiKeys.findFirst({ where: own });
  if (!existing) throw notFound('API key');
  // Revoking a revoked key again changes nothing and is fine.
  if (!existing.revokedAt) throw new ApiError('conflict', 'This is your last active key: create another one first, so you are not locked out.');
}

/** How many of the user's keys still work: not revoked, and their membership still stands. */
const activeKeyCount = (userId: string) => sql`
  SELECT count(*) FROM api_keys k JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
  WHERE k.user_id = ${userId} AND k.revoked_at IS NULL`;

/** The principal a presented key stands for, or null for an unknown or revoked key, or one whose
 *  user is no longer a member of the key's workspace. One query: key, membership and name together. */
export async function authenticateKey(db: Db, key: string): Promise<KeyPrincipal | null> {
  const hash = await sha256Hex(key);
  const now = Date.now();
  const hit = cache.get(hash);
  if (hit && hit.expires > now) return hit.principal;

  const row = await db
    .select({
      keyId: apiKeys.id, userId: apiKeys.userId, userName: users.name, workspaceId: memberships.workspaceId, timeZone: workspaces.timeZone, role: memberships.role,
    })
    .from(apiKeys)
    .innerJoin(memberships, and(eq(memberships.workspaceId, apiKeys.workspaceId), eq(memberships.userId, apiKeys.userId)))
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .get();
  const principal = row ?? null;
  cache.set(hash, { principal, expires: now + CACHE_TTL_MS });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return principal;
}

/** Forget cached lookups for one member of a workspace (removed, or their role changed), so the
 *  change holds at once on this isolate. */
export function forgetMemberKeys(workspaceId: string, userId: string): void {
  for (const [hash, entry] of cache) {
    if (entry.principal?.workspaceId === workspaceId && entry.principal.userId === userId) cache.delete(hash);
  }
}

/** Forget cached lookups for every key of a workspace (its time zone changed). */
export function forgetWorkspaceKeys(workspaceId: string): void {
  for (const [hash, entry] of cache) if (entry.principal?.workspaceId === workspaceId) cache.delete(hash);
}
