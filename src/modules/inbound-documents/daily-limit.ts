// §7, §21: at most 500 documents a day per workspace, however they arrive (uploads, email, other workspaces).
// Counted over the last 24 hours from the documents themselves, inside the batch that inserts one, so two
// documents arriving at once can never both be the 501st. Past it: 429 `rate_limited`, its Retry-After the
// moment the oldest of the counted documents leaves the window.
import { and, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import { inboundDocuments } from '../../db/schema';
import { ApiError } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';

export const DAILY_DOCUMENT_LIMIT = 500;
const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Where the window counted from `now` begins. */
export const windowStart = (now: number) => new Date(now - WINDOW_MS).toISOString();

/** The condition an insert rides on: fewer than the limit received since `since`. */
export const underDailyLimit = (workspaceId: string, since: string): SQL =>
  sql`(SELECT count(*) FROM ${inboundDocuments} WHERE ${inboundDocuments.workspaceId} = ${workspaceId} AND ${inboundDocuments.receivedAt} > ${since}) < ${DAILY_DOCUMENT_LIMIT}`;

/** The 429 for a workspace at its limit: when the oldest document counted leaves the window, one more fits. */
export async function dailyLimitReached(ctx: WorkspaceContext, since: string, now: number): Promise<ApiError> {
  const [oldestCounted] = await ctx.db
    .select({ receivedAt: inboundDocuments.receivedAt })
    .from(inboundDocuments)
    .where(and(eq(inboundDocuments.workspaceId, ctx.workspaceId), gt(inboundDocuments.receivedAt, since)))
    .orderBy(desc(inboundDocuments.receivedAt))
    .limit(1)
    .offset(DAILY_DOCUMENT_LIMIT - 1);
  const freesAt = oldestCounted ? Date.parse(oldestCounted.receivedAt) + WINDOW_MS : now;
  const seconds = String(Math.max(1, Math.ceil((freesAt - now) / 1000)));
  return new ApiError('rate_limited', `Too many documents: at most ${DAILY_DOCUMENT_LIMIT} a day per workspace.`, undefined, {
    'RateLimit-Limit': String(DAILY_DOCUMENT_LIMIT),
    'RateLimit-Policy': `${DAILY_DOCUMENT_LIMIT};w=${WINDOW_MS / 1000}`,
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': seconds,
    'Retry-After': seconds,
  });
}
