// Putting due delivery attempts on the webhooks queue. A delivery's state is in D1 (written by the
// event's own batch, by a retry, or by a request for a test, a resend or a recovery); a message only
// says "try this one now". Marking `enqueued_at` in the same statement that picks the rows keeps two
// dispatchers from sending the same attempt; should one be sent twice anyway, the consumer's lease
// lets only one delivery happen. An attempt whose message never arrives is found by the sweep.
import { and, eq, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import { webhookDeliveries } from '../../db/schema';
import { createDb, type Db } from '../../lib/db';
import { DISPATCH_CHUNK, enqueue } from './enqueue';

/** A due attempt that nobody took for this long had its message lost. */
const LOST_AFTER_MS = 2 * 60_000;

/** The statement that marks up to a chunk of due, unenqueued attempts enqueued and answers their ids; `at` is now (or its placeholder). */
export function claimDueDeliveries(db: Db, at: string | SQL) {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, at), isNull(webhookDeliveries.enqueuedAt)))
    .limit(DISPATCH_CHUNK);
  return db
    .update(webhookDeliveries)
    .set({ enqueuedAt: at })
    .where(and(inArray(webhookDeliveries.id, due), isNull(webhookDeliveries.enqueuedAt)))
    .returning({ id: webhookDeliveries.id });
}

/** Enqueues every due attempt no one has enqueued yet: run after each write and job. Returns how many. */
export async function dispatchDueDeliveries(env: Env, now = new Date()): Promise<number> {
  const marked = await claimDueDeliveries(createDb(env.DB), now.toISOString());
  await enqueue(env, marked.map((r) => r.id));
  return marked.length;
}

/**
 * Cron: every attempt due for more than two minutes that no delivery holds (its message was lost,
 * or never sent) goes on the queue again, a bounded number a run. Returns how many.
 */
export async function sweepLostDeliveries(env: Env, now = new Date(), limit = 500): Promise<number> {
  const db = createDb(env.DB);
  const at = now.toISOString();
  const lostBefore = new Date(now.getTime() - LOST_AFTER_MS).toISOString();
  const lost = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lt(webhookDeliveries.nextAttemptAt, lostBefore),
        or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, at)),
        or(isNull(webhookDeliveries.enqueuedAt), lt(webhookDeliveries.enqueuedAt, lostBefore)),
      ),
    )
    .limit(limit);
  const marked = await db.update(webhookDeliveries).set({ enqueuedAt: at }).where(inArray(webhookDeliveries.id, lost)).returning({ id: webhookDeliveries.id });
  await enqueue(env, marked.map((r) => r.id));
  if (marked.length) console.warn(JSON.stringify({ level: 'warn', message: 'webhook deliveries re-enqueued by the sweep', count: marked.length }));
  return marked.length;
}

/** Sent, whatever happens to it: failures to enqueue are left to the sweep. */
export async function dispatchQuietly(env: Env): Promise<void> {
  try {
    await dispatchDueDeliveries(env);
  } catch (err) {
    console.warn(JSON.stringify({ level: 'warn', message: 'webhook dispatch failed; the sweep will send', reason: String(err) }));
  }
}
