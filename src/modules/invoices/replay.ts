// What a keyed invoice action stores for its replay, and how the replay gets its links back. The
// hosted links carry the page's token, which is kept only as a hash, so the stored answer has them
// null; a replay builds them again from the invoice's current link version (one read, on replays
// only). A link rotated since the first answer is therefore replayed as the link that works now.
import { and, eq } from 'drizzle-orm';
import { invoices } from '../../db/schema';
import { inWorkspace } from '../../lib/context';
import type { ReplayRestore } from '../../middleware/idempotency';
import { invoiceLinks, linkOrigin } from './links';

export const invoiceReplay: ReplayRestore = {
  fields: ['hosted_url', 'pdf_url'],
  async restore(c, body) {
    if (typeof body.id !== 'string') return body;
    const ctx = c.get('ctx');
    const [row] = await ctx.db
      .select({ id: invoices.id, linkVersion: invoices.linkVersion })
      .from(invoices)
      .where(and(eq(invoices.id, body.id), inWorkspace(ctx, invoices)));
    return row ? { ...body, ...(await invoiceLinks(c.env, linkOrigin(c.env, c.req.url), row)) } : body;
  },
};
