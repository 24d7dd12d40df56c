// Bearer authentication. `requireKey` admits a user's API key and builds the request's
// ServiceContext (the key's workspace, its user, their role); `requireRole` then answers 403 to a
// role below the operation's. `requireAdmin` admits only the operator's ADMIN_TOKEN (compared in
// constant time) and answers 403 to a valid user key.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { timingSafeEqualStrings } from '../lib/crypto';
import { hasRole, type Role } from '../lib/context';
import { createDb } from '../lib/db';
import { authenticateKey, KEY_PATTERN } from './key-lookup';

const unauthorized = (message: string) =>
  new ApiError('unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="workspace-api"' });

function bearerToken(c: Context): string {
  const header = c.req.header('Authorization');
  if (!header) throw unauthorized('Send your API key as `Authorization: Bearer wsk_…`.');
  // The scheme word is case-insensitive (RFC 9110 §11.1).
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match) throw unauthorized('Malformed Authorization header: expected `Bearer <key>`.');
  return match[1]!;
}

export const requireKey = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c);
  const db = createDb(c.env.DB);
  const principal = KEY_PATTERN.test(token) ? await authenticateKey(db, token) : null;
  if (!principal) throw unauthorized('The API key is unknown or has been revoked.');
  const { keyId, userId, userName, workspaceId, timeZone, role } = principal;
  c.set('ctx', { db, env: c.env, workspaceId, timeZone, role, userId, keyId, actor: { type: 'user', id: userId, name: userName } });
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
  const token = bearerToken(c);
  const adminToken = c.env.ADMIN_TOKEN;
  if (adminToken && (await timingSafeEqualStrings(token, adminToken))) return next();
  if (KEY_PATTERN.test(token) && (await authenticateKey(createDb(c.env.DB), token))) {
    throw new ApiError('forbidden', 'This operation needs the operator token, not a user API key.');
  }
  throw unauthorized('The operator token is not valid.');
});
