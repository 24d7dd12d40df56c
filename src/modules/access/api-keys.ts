// API keys: `wsk_` + 43 characters of base64url randomness, shown once and stored as a SHA-256 hash.
// Lookups are cached in this isolate for 30 s; revoking drops the entry here at once, and other
// isolates forget it within 30 s (the contract promises 60 s everywhere).
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import { apiKeys } from '../../db/schema';
import type { Caller } from '../../env';
import { notFound } from '../../errors';
import { sha256Hex, randomToken } from '../../lib/crypto';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';

export const KEY_PREFIX = 'wsk_';
export const KEY_PATTERN = /^wsk_[A-Za-z0-9_-]{32,128}$/;
const CACHE_TTL_MS = 30_000;

type CachedKey = { caller: Caller | null; expires: number };
const cache = new Map<string, CachedKey>();

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export const serializeKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt,
  revoked_at: row.revokedAt,
});

/** A new key's secret, its hash, and the row to insert (the caller decides how to write it). */
export async function mintKey(userId: string, name: string) {
  const key = KEY_PREFIX + randomToken(32);
  const row: ApiKeyRow = {
    id: newId('key'),
    userId,
    name,
    prefix: key.slice(0, 12),
    keyHash: await sha256Hex(key),
    createdAt: nowIso(),
    revokedAt: null,
  };
  return { key, row };
}

export async function createKey(db: Db, userId: string, name: string) {
  const { key, row } = await mintKey(userId, name);
  await db.insert(apiKeys).values(row);
  return { ...serializeKey(row), key };
}

export async function listKeys(db: Db, userId: string, limit: number, beforeId?: string) {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), beforeId ? lt(apiKeys.id, beforeId) : undefined))
    .orderBy(desc(apiKeys.id))
    .limit(limit + 1);
}

export async function revokeKey(db: Db, userId: string, keyId: string): Promise<void> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: nowIso() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash });
  if (!row) {
    // Already revoked keys are not listed as usable, but a second DELETE is still "not found" only
    // when the key is not the caller's at all.
    const existing = await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)) });
    if (!existing) throw notFound('API key');
    cache.delete(existing.keyHash);
    return;
  }
  cache.delete(row.keyHash);
}

/** The caller a presented key belongs to, or null for an unknown or revoked key. */
export async function authenticateKey(db: Db, key: string): Promise<Caller | null> {
  const hash = await sha256Hex(key);
  const now = Date.now();
  const hit = cache.get(hash);
  if (hit && hit.expires > now) return hit.caller;

  const row = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hash))
    .get();
  const caller = row && !row.revokedAt ? { userId: row.userId, keyId: row.id } : null;
  cache.set(hash, { caller, expires: now + CACHE_TTL_MS });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return caller;
}
