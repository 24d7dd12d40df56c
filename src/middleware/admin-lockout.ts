// The admin lockout of §7: 10 failed operator-token attempts from one address within 10 minutes
// lock that address out of the admin routes for the rest of those 10 minutes, even with the right
// token, so the token cannot be guessed at speed. A missing token counts as a failure.
//
// Counted in Durable Objects (admin-lockout-object.ts): the rate-limiting binding only knows
// periods of 10 or 60 seconds and cannot hold a lock, and D1 would add a round trip to every
// request. Each address is counted in exactly one of a fixed set of objects, chosen by a hash of
// the address, so the lock holds across locations; a fixed set rather than an object per address,
// so a caller cycling through addresses cannot make an object start for each request. This file
// stays free of `cloudflare:workers` so that Node tools (the OpenAPI export) can load the app.

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 10 * 60_000;
const LOCKOUT_SHARDS = 16;

/** FNV-1a: a stable, even spread of addresses over the objects (no secret is involved). */
export function shardOf(address: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < address.length; i++) hash = Math.imul(hash ^ address.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % LOCKOUT_SHARDS;
}

/** The lockout counter of one client address. */
export function adminLockoutOf(env: Env, address: string) {
  const counter = env.ADMIN_LOCKOUT.get(env.ADMIN_LOCKOUT.idFromName(`shard-${shardOf(address)}`));
  return {
    lockedUntil: () => counter.lockedUntil(address),
    recordFailure: () => counter.recordFailure(address),
  };
}
