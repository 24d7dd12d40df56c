// What an invitation acceptance carries besides its body: the key of the account that accepts (a
// public route, so the key is optional here and checked only where the invitation needs it), and an
// Idempotency-Key, remembered on the invitation itself since a public request has no workspace to
// keep it in (invitations.ts).
import type { Context } from 'hono';
import { ApiError } from '../../errors';
import { sha256Hex } from '../../lib/crypto';
import { createDb } from '../../lib/db';
import { canonicalJson, IDEMPOTENCY_KEY_SHAPE } from '../../middleware/idempotency';
import { keyPrincipal } from '../../middleware/auth';
import type { AcceptIdempotency, Caller } from './invitations';

/** The user whose key came with the request; null when none did; 401 for a malformed or unknown one. */
export async function presentedCaller(c: Context): Promise<Caller> {
  if (c.req.header('Authorization') === undefined) return null;
  return { userId: (await keyPrincipal(c, createDb(c.env.DB))).userId };
}

export async function acceptIdempotency(key: string | undefined, body: unknown): Promise<AcceptIdempotency | undefined> {
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_SHAPE.test(key)) {
    throw new ApiError('validation_failed', 'The request is not valid.', [{ path: 'Idempotency-Key', message: 'Use 1 to 255 visible ASCII characters.' }]);
  }
  const [keyHash, requestHash] = await Promise.all([sha256Hex(key), sha256Hex(canonicalJson(body))]);
  return { keyHash, requestHash };
}

export const ACCEPT_IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description: 'Makes a retry safe: the same code and body with the same key within 24 hours replays the first answer with `Idempotent-Replayed: true` and `api_key.key` null (the key was shown once); the same key with another body is 422 `idempotency_key_reused`.',
  schema: { type: 'string' as const, minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};
