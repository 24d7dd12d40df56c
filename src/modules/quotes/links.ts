// The quote's hosted link (§18): `<origin>/q/<token>`, made and found as an invoice's (§10): the
// token is derived from the quote's id and link version, only its hash is stored.
import { and, eq } from 'drizzle-orm';
import { quotes } from '../../db/schema';
import { inWorkspace } from '../../lib/context';
import type { ReplayRestore } from '../../middleware/idempotency';
import { linkOrigin, linkToken } from '../invoices/links';

export async function quoteLinks(env: Env, origin: string, row: { id: string; linkVersion: number | null }) {
  if (row.linkVersion === null) return { hosted_url: null, pdf_url: null };
  const hosted = `${origin}/q/${await linkToken(env, row.id, row.linkVersion)}`;
  return { hosted_url: hosted, pdf_url: `${hosted}/pdf` };
}

/** A keyed quote action's replay gets its links back from the quote's current link version. */
export const quoteReplay: ReplayRestore = {
  fields: ['hosted_url', 'pdf_url'],
  async restore(c, body) {
    if (typeof body.id !== 'string') return body;
    const ctx = c.get('ctx');
    const [row] = await ctx.db.select({ id: quotes.id, linkVersion: quotes.linkVersion }).from(quotes).where(and(eq(quotes.id, body.id), inWorkspace(ctx, quotes)));
    return row ? { ...body, ...(await quoteLinks(c.env, linkOrigin(c.env, c.req.url), row)) } : body;
  },
};
