// Bearer authentication. `requireKey` admits a user's API key; `requireAdmin` admits only the
// operator's ADMIN_TOKEN (compared in constant time) and answers 403 to a valid user key.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { timingSafeEqualStrings } from '../lib/crypto';
import { createDb } from '../lib/db';
import { authenticateKey, KEY_PATTERN } from '../modules/access/api-keys';

const unauthorized = (message: string) =>
  new ApiError('unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="workspace-api"' });

function bearerToken(c: Context): string {
  const header = c.req.header('Authorization');
  if (!header) throw unauthorized('Send your API key as `Authorization: Bearer wsk_…`.');
  const match = /^Bearer ([^\s]+)$/.exec(header);
  if (!match) throw unauthorized('Malformed Authorization header: expected `Bearer <key>`.');
  return match[1]!;
}

export const requireKey = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c);
  const caller = KEY_PATTERN.test(token) ? await authenticateKey(createDb(c.env.DB), token) : null;
  if (!caller) throw unauthorized('The API key is unknown or has been revoked.');
  c.set('caller', caller);
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c);
  const adminToken = c.env.ADMIN_TOKEN;
  if (adminToken && (await timingSafeEqualStrings(token, adminToken))) return next();
  if (KEY_PATTERN.test(token) && (await authenticateKey(createDb(c.env.DB), token))) {
    throw new ApiError('forbidden', 'This operation needs the operator token, not a user API key.');
  }
  throw unauthorized('The operator token is not valid.');
});
