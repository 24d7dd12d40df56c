// Whether a gig takes proposals: open, and not past its expires_on (§6: a gig past it is closed).
// Checked when read, to answer why not, and again in SQL by the write it guards.
import { and, eq, exists, gte, isNull, or, sql } from 'drizzle-orm';
import { gigs } from '../../db/schema';
import type { Db } from '../../lib/db';
import { todayUtc } from '../../lib/time';

type GigState = Pick<typeof gigs.$inferSelect, 'status' | 'expiresOn'>;

export const isOpenGig = (gig: GigState, today = todayUtc()) => gig.status === 'open' && (gig.expiresOn === null || gig.expiresOn >= today);

/** "Gig `gigId` is still open", for a guarded write. */
export const gigStillOpen = (db: Db, gigId: string, today = todayUtc()) =>
  exists(db.select({ one: sql`1` }).from(gigs).where(and(eq(gigs.id, gigId), eq(gigs.status, 'open'), or(isNull(gigs.expiresOn), gte(gigs.expiresOn, today)))));

export const closedGigMessage = (gig: GigState) =>
  gig.status === 'closed' ? 'This gig is closed: it takes no more proposals.' : `This gig expired on ${gig.expiresOn}: it takes no more proposals.`;
