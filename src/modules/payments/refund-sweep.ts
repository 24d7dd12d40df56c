// The cron's ask-again of refunds a provider never answered (payments/refund-settlement.ts): the
// request timed out, the provider answered with a 5xx or garbage, or the worker stopped between
// the reservation and the ask. Each is asked again with the same Idempotency-Key (the refund's id):
// the provider answers with the refund it already made, or makes it now, never a second one. A
// refund is left a minute first, so the request that reserved it has had its own answer.
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import { payments, refunds, workspaces } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { createDb, type Db } from '../../lib/db';
import { PAYMENTS_JOB } from './providers/provider';
import { askProviderAndSettle } from './refund-settlement';

export const ASK_AGAIN_AFTER_MS = 60_000;
// Each is one provider call; a longer backlog is taken over the next runs.
const PER_RUN = 25;

/** The unanswered refunds made before `before`, oldest first, read from their partial index. */
export const unansweredRefunds = (db: Db, before: string) =>
  db
    .select({ refund: refunds, payment: payments, timeZone: workspaces.timeZone })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .innerJoin(workspaces, eq(workspaces.id, refunds.workspaceId))
    .where(and(eq(refunds.status, 'pending'), isNull(refunds.providerRefundId), lt(refunds.createdAt, before)))
    .orderBy(asc(refunds.createdAt))
    .limit(PER_RUN);

export async function askAgainUnansweredRefunds(env: Env, now = Date.now()): Promise<number> {
  const due = await unansweredRefunds(createDb(env.DB), new Date(now - ASK_AGAIN_AFTER_MS).toISOString());
  let settled = 0;
  for (const { refund, payment, timeZone } of due) {
    const ctx = systemContext(env, refund.workspaceId, PAYMENTS_JOB, timeZone);
    try {
      if ((await askProviderAndSettle(ctx, payment, refund)).status !== 'pending') settled++;
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', message: 'asking again for a refund failed', refund_id: refund.id, error: String(err) }));
    }
  }
  return settled;
}
