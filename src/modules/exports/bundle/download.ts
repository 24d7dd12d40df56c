// The link a ready bundle is downloaded by (§22): `/x/<id>?expires=<unix seconds>&signature=<token>`, the token an
// HMAC of the id and the expiry under the server secret (lib/server-token.ts), so the link is valid until then and
// can be made again at any time without storing it. The bundle is kept 24 hours from when it was ready, and its link
// is valid until then: after that the cron removes the file (sweep.ts) and the export says `expired`. The worker
// serves the ZIP from object storage itself; the storage key is never shown.
import { timingSafeEqualStrings } from '../../../lib/crypto';
import { serverToken } from '../../../lib/server-token';

/** A bundle is kept, and its link valid, 24 hours from when it was ready. */
export const DOWNLOAD_TTL_SECONDS = 24 * 60 * 60;

/** The moment a bundle ready at `completedAt` expires, in whole seconds (as its link carries it). */
export const expiryOf = (completedAt: string) => Math.floor(Date.parse(completedAt) / 1000) + DOWNLOAD_TTL_SECONDS;

const message = (id: string, expires: number) => `export-download:${id}:${expires}`;

/** The link of a bundle ready at `completedAt`: the same one each time it is asked for. */
export async function downloadLink(env: Env, origin: string, id: string, completedAt: string): Promise<{ url: string; expiresAt: string }> {
  const expires = expiryOf(completedAt);
  const signature = await serverToken(env, message(id, expires));
  return { url: `${origin}/x/${id}?expires=${expires}&signature=${signature}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** Whether the link's signature is the server's for this id and expiry (else `invalid`), and the expiry is still ahead. */
export async function checkDownload(env: Env, id: string, expires: string | undefined, signature: string | undefined, now = Date.now()): Promise<'valid' | 'expired' | 'invalid'> {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = await serverToken(env, message(id, Number(expires)));
  if (!(await timingSafeEqualStrings(expected, signature))) return 'invalid';
  return Number(expires) * 1000 <= now ? 'expired' : 'valid';
}
