// Bearer authentication. `requireKey` admits a user's API key and builds the request's
// ServiceContext (the key's workspace, its user, their role); `requireRole` then answers 403 to a
// role below the operation's. `requireAdmin` admits only the operator's ADMIN_TOKEN (compared in
// constant time), answers 403 to a valid user key, and counts every failure against the caller's
// address (admin-lockout.ts): an address locked out gets 429 whatever it sends.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ApiError, unauthorized } from '../errors';
import { timingSafeEqualStrings } from '../lib/crypto';
import { hasRole, type Role } from '../lib/context';
import { DIRECTORY } from '../lib/databases';
import { createDb, type Db } from '../lib/db';
import { adminLockoutOf, LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS } from './admin-lockout';
import { requestEnvFor } from './d1-session';
import { authenticateKey, KEY_PATTERN, type KeyPrincipal } from './key-lookup';
import { clientAddress } from './rate-limit';

function bearerToken(c: Context): string {
  const header = c.req.header('Authorization');
  if (!header) throw unauthorized('Send your API key as `Authorization: Bearer wsk_…`.');
  // The scheme word is case-insensitive (RFC 9110 §11.1).
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match) throw unauthorized('Malformed Authorization header: expected `Bearer <key>`.');
  return match[1]!;
}

/** Who the request's bearer key stands for; 401 for a missing, malformed, unknown or revoked one. */
export async function keyPrincipal(c: Context, directory: Db): Promise<KeyPrincipal> {
  const token = bearerToken(c);
  const principal = KEY_PATTERN.test(token) ? await authenticateKey(directory, token) : null;
  if (!principal) throw unauthorized('The API key is unknown or has been revoked.');
  return principal;
}

export const requireKey = createMiddleware<AppEnv>(async (c, next) => {
  // The lookup reads the directory's primary outside the request's sessions: until it answers, the
  // request does not know which database its bookmark describes (d1-session.ts). It is cached anyway.
  const principal = await keyPrincipal(c, createDb(c.var.d1.binding(DIRECTORY)));
  const { keyId, userId, userName, workspaceId, timeZone, role, database } = principal;
  c.set('homeDatabase', database);
  const directory = createDb(c.env.DB);
  // The workspace's records are in its database: services read ctx.db, and ctx.env.DB is the same
  // session, so what a service queues names that database. Directory writes use ctx.directory.
  const env = requestEnvFor(c, database);
  c.set('ctx', {
    db: createDb(env.DB), directory, database, env, workspaceId, timeZone, role, userId, keyId, actor: { type: 'user', id: userId, name: userName },
  });
  await next();
});

/** 403 unless the key's role in its workspace is at least `needed`; runs before anything reads the request. */
export function requireRole(needed: Role) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!hasRole(c.get('ctx').role, needed)) {
      throw new ApiError('forbidden', `This operation needs the ${needed} role or higher in this workspace; your role is ${c.get('ctx').role}.`);
    }
    await next();
  });
}

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const lockout = adminLockoutOf(c.env, clientAddress(c));
  const lockedUntil = await lockout.lockedUntil();
  if (lockedUntil) throw lockedOut(lockedUntil);
  const refusal = await operatorTokenRefusal(c);
  if (refusal) {
    await lockout.recordFailure();
    throw refusal;
  }
  await next();
});

/** Why the request does not carry the operator token (401, or 403 for a user key), or null when it does. */
async function operatorTokenRefusal(c: Context<AppEnv>): Promise<ApiError | null> {
  let token: string;
  try {
    token = bearerToken(c);
  } catch (err) {
    return err as ApiError;
  }
  const adminToken = c.env.ADMIN_TOKEN;
  if (adminToken && (await timingSafeEqualStrings(token, adminToken))) return null;
  if (KEY_PATTERN.test(token) && (await authenticateKey(createDb(c.env.DB), token))) {
    return new ApiError('forbidden', 'This operation needs the operator token, not a user API key.');
  }
  return unauthorized('The operator token is not valid.');
}

function lockedOut(until: number): ApiError {
  const seconds = String(Math.max(1, Math.ceil((until - Date.now()) / 1000)));
  return new ApiError(
    'rate_limited',
    `Too many failed operator-token attempts from this address: at most ${LOCKOUT_FAILURES} in ${LOCKOUT_WINDOW_MS / 60_000} minutes. Try again after Retry-After.`,
    undefined,
    {
      'RateLimit-Limit': String(LOCKOUT_FAILURES),
      'RateLimit-Policy': `${LOCKOUT_FAILURES};w=${LOCKOUT_WINDOW_MS / 1000}`,
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': seconds,
      'Retry-After': seconds,
    },
  );
}
