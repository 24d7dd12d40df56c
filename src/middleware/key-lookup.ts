// Who a presented API key stands for: its user, the workspace it acts in, the user's role, the
// workspace's time zone and the database that holds its records, in one query on the directory.
// Lookups are cached in this isolate for 30 s; revoking a key, or removing or changing a member,
// drops the entries here at once, and other isolates forget them within 30 s (the contract
// promises 60 s everywhere).
import { and, eq, isNull } from 'drizzle-orm';
import { apiKeys, memberships, users, workspaces, type Role } from '../db/schema';
import { sha256Hex } from '../lib/crypto';
import { databaseOf } from '../lib/databases';
import type { Db } from '../lib/db';

export const KEY_PATTERN = /^wsk_[A-Za-z0-9_-]{32,128}$/;
const CACHE_TTL_MS = 30_000;

/** Who a presented key stands for. */
export type KeyPrincipal = {
  keyId: string; userId: string; userName: string; workspaceId: string; timeZone: string; role: Role;
  /** The binding that holds the workspace's records (lib/databases.ts). */
  database: string;
};

type CachedKey = { principal: KeyPrincipal | null; expires: number };
const cache = new Map<string, CachedKey>();

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
      database: workspaces.database,
    })
    .from(apiKeys)
    .innerJoin(memberships, and(eq(memberships.workspaceId, apiKeys.workspaceId), eq(memberships.userId, apiKeys.userId)))
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .get();
  const principal = row ? { ...row, database: databaseOf(row) } : null;
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

/** Forget cached lookups for every key of a workspace (its time zone or its database changed). */
export function forgetWorkspaceKeys(workspaceId: string): void {
  for (const [hash, entry] of cache) if (entry.principal?.workspaceId === workspaceId) cache.delete(hash);
}

/** Forget one key (by the hash stored for it), e.g. when it is revoked. */
export function forgetKey(keyHash: string): void {
  cache.delete(keyHash);
}
