// The cron's watch on validity (§18): an open quote whose valid_until has passed in its workspace's
// time zone becomes `expired` and writes quote.expired, once (the UPDATE is guarded on `open`), in
// chunks found by the (status, valid_until) index.
import { and, asc, eq, gt, lt, or } from 'drizzle-orm';
import { quotes, workspaces } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { CRON_CHUNK, inChunks } from '../../lib/chunked';
import { createDb } from '../../lib/db';
import { changedRows } from '../../lib/guarded-write';
import { budgetOf } from '../../lib/query-budget';
import { nowIso, todayIn } from '../../lib/time';
import { recordEvent } from '../events/record';
import type { QuoteRow } from './serialize';
import { quoteObject } from './service';

export const QUOTE_EXPIRY_JOB = 'quote_expiry';
const MAX_PER_RUN = 2000;

/** Expires every open quote past its validity where its workspace is. Returns how many. */
export async function expireQuotes(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  // Valid until before today somewhere on Earth (UTC+14 is the first to reach a day).
  const latestToday = todayIn('Pacific/Kiritimati', new Date(now));
  let expired = 0;
  type Candidate = { quote: QuoteRow; timeZone: string };
  const find = (after: Candidate | undefined) =>
    db
      .select({ quote: quotes, timeZone: workspaces.timeZone })
      .from(quotes)
      .innerJoin(workspaces, eq(workspaces.id, quotes.workspaceId))
      .where(and(eq(quotes.status, 'open'), lt(quotes.validUntil, latestToday), after ? afterQuote(after.quote) : undefined))
      .orderBy(asc(quotes.validUntil), asc(quotes.id))
      .limit(CRON_CHUNK);
  await inChunks(find, async ({ quote, timeZone }) => {
    if (quote.validUntil >= todayIn(timeZone, new Date(now))) return; // still valid where the workspace is
    const ctx = systemContext(env, quote.workspaceId, QUOTE_EXPIRY_JOB, timeZone);
    const after: QuoteRow = { ...quote, status: 'expired', updatedAt: nowIso() };
    const [updated] = await ctx.db.batch([
      ctx.db.update(quotes).set({ status: 'expired', updatedAt: after.updatedAt }).where(and(eq(quotes.id, quote.id), eq(quotes.status, 'open'), eq(quotes.updatedAt, quote.updatedAt))),
      recordEvent(ctx, 'quote.expired', quoteObject(after), { ifChanged: true }),
    ]);
    if (changedRows(updated) > 0) expired++;
  }, MAX_PER_RUN, budgetOf(env));
  return expired;
}

const afterQuote = (row: { validUntil: string; id: string }) =>
  or(gt(quotes.validUntil, row.validUntil), and(eq(quotes.validUntil, row.validUntil), gt(quotes.id, row.id)));
