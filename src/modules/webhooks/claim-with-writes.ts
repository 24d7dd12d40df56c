// Webhook deliveries leave with the write that made them. A write's batch holds its change and its
// event, and the event's trigger adds a delivery for every subscribed endpoint; this hook appends one
// more statement to each of the request's batches from its first event on (the reads before it
// cannot have made a delivery), which marks the due deliveries enqueued and
// answers their ids. After the answer, the request only puts those ids on the queue: no extra D1
// round trip per write. Events are only ever written in batches, so a request without one made no
// deliveries (the webhook routes that make them otherwise dispatch them themselves).
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../env';
import { withDatabase } from '../../lib/databases';
import { DISPATCH_CHUNK, enqueueQuietly } from './enqueue';

// The statement dispatch.ts's claimDueDeliveries builds, written out: this middleware is on every
// request's path, and building it with drizzle would build every table at a cold worker's start.
// test/webhooks/claim-with-writes.test.ts checks that the two agree.
export const CLAIM_DUE_DELIVERIES_SQL =
  'update "webhook_deliveries" set "enqueued_at" = ? where ("webhook_deliveries"."id" in (select "id" from "webhook_deliveries" where ' +
  '("webhook_deliveries"."status" = ? and "webhook_deliveries"."next_attempt_at" <= ? and "webhook_deliveries"."enqueued_at" is null) limit ?) ' +
  'and "webhook_deliveries"."enqueued_at" is null) returning "id"';

/** Its values, in the order of its placeholders, with `at` for now. */
export const claimValues = (at: string) => [at, 'pending', at, DISPATCH_CHUNK];

export const claimDeliveriesWithWrites = createMiddleware<AppEnv>(async (c, next) => {
  const hooks = c.get('batchHooks');
  if (!hooks) return next();
  // Delivery ids by the database whose batches claimed them (a workspace's records, events and
  // deliveries live on its database).
  const claimed = new Map<string, string[]>();
  hooks.push({
    afterEvents: true,
    after: (d1) => [d1.prepare(CLAIM_DUE_DELIVERIES_SQL).bind(...claimValues(new Date().toISOString()))],
    done: ([result], database) => {
      const ids = (result as D1Result<{ id: string }>).results.map((row) => row.id);
      if (ids.length) claimed.set(database, [...(claimed.get(database) ?? []), ...ids]);
    },
  });
  await next();
  for (const [database, ids] of claimed) {
    try {
      c.executionCtx.waitUntil(enqueueQuietly(withDatabase(c.env, database), ids));
    } catch {
      // No execution context (a direct app.request): the cron sweep sends them.
    }
  }
});
