// Cron (on each database): no received document waits forever. One still `received` some minutes after it arrived
// (its message was never sent, or lost) and one `processing` past its claim (its worker died) are queued again; the
// consumer's claim makes a message that turns out to be extra do nothing.
import { and, asc, eq, inArray, lt, or } from 'drizzle-orm';
import { inboundDocuments } from '../../db/schema';
import { createDb } from '../../lib/db';
import { PROCESSING_LEASE_MS } from './consumer';
import { inboundMessage } from './message';

/** How long a message normally takes to be consumed: a document `received` longer than this was stranded. */
export const STRANDED_AFTER_MS = 5 * 60_000;
const SWEEP_LIMIT = 100; // one sendBatch

/** The query the sweep runs (exported for the index test). */
export function strandedDocuments(env: Env, now = Date.now()) {
  const received = new Date(now - STRANDED_AFTER_MS).toISOString();
  const lapsed = new Date(now - PROCESSING_LEASE_MS).toISOString();
  return createDb(env.DB)
    .select({ id: inboundDocuments.id })
    .from(inboundDocuments)
    .where(
      and(
        inArray(inboundDocuments.status, ['received', 'processing']),
        or(
          and(eq(inboundDocuments.status, 'received'), lt(inboundDocuments.updatedAt, received)),
          and(eq(inboundDocuments.status, 'processing'), lt(inboundDocuments.updatedAt, lapsed)),
        ),
      ),
    )
    .orderBy(asc(inboundDocuments.updatedAt))
    .limit(SWEEP_LIMIT);
}

/** Queues the stranded documents again; answers their ids. */
export async function sweepStrandedDocuments(env: Env): Promise<string[]> {
  const stranded = await strandedDocuments(env);
  if (stranded.length) await env.INBOUND_QUEUE.sendBatch(stranded.map((row) => ({ body: inboundMessage(row.id, env) })));
  return stranded.map((row) => row.id);
}
