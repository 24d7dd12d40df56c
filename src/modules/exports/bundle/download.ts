// The link a ready bundle is downloaded by (§22): `/x/<id>?expires=<unix seconds>&signature=<token>`, the token an
// HMAC of the id and the expiry under the server secret (lib/server-token.ts), so the link is valid until then and
// can be made again at any time without storing it. The worker serves the ZIP from object storage itself; the
// storage key is never shown.
import { timingSafeEqualStrings } from '../../../lib/crypto';
import { serverToken } from '../../../lib/server-token';

/** A link lives 24 hours from the answer that gave it. */
export const DOWNLOAD_TTL_SECONDS = 24 * 60 * 60;

const message = (id: string, expires: number) => `export-download:${id}:${expires}`;

export async function downloadLink(env: Env, origin: string, id: string, now = Date.now()): Promise<{ url: string; expiresAt: string }> {
  const expires = Math.floor(now / 1000) + DOWNLOAD_TTL_SECONDS;
  const signature = await serverToken(env, message(id, expires));
  return { url: `${origin}/x/${id}?expires=${expires}&signature=${signature}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** Whether the link's signature is the server's for this id and expiry, and the expiry is still ahead. */
export async function validDownload(env: Env, id: string, expires: string | undefined, signature: string | undefined, now = Date.now()): Promise<boolean> {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return false;
  const expected = await serverToken(env, message(id, Number(expires)));
  return timingSafeEqualStrings(expected, signature);
}
