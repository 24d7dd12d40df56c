// The admin lockout of §7: 10 failed operator-token attempts from one address within 10 minutes
// lock that address out of the admin routes for the rest of those 10 minutes, even with the right
// token, so the token cannot be guessed at speed. A missing token counts as a failure.
//
// Counted in a Durable Object, one per address (admin-lockout-object.ts): the rate-limiting binding
// only knows periods of 10 or 60 seconds and cannot hold a lock, and D1 would add a round trip to
// every request. The object is the one place in the world that counts its address, so the lock
// holds across locations. This file stays free of `cloudflare:workers` so that Node tools (the
// OpenAPI export) can load the app.

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 10 * 60_000;

/** The lockout counter of one client address. */
export const adminLockoutOf = (env: Env, address: string) => env.ADMIN_LOCKOUT.get(env.ADMIN_LOCKOUT.idFromName(address));
