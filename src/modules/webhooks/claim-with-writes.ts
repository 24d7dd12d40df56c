// Webhook deliveries leave with the write that made them. A write's batch holds its change and its
// event, and the event's trigger adds a delivery for every subscribed endpoint; this hook appends one
// more statement to each of the request's batches, which marks the due deliveries enqueued and
// answers their ids. After the answer, the request only puts those ids on the queue: no extra D1
// round trip per write. Events are only ever written in batches, so a request without one made no
// deliveries (the webhook routes that make them otherwise dispatch them themselves).
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../env';
import { createDb } from '../../lib/db';
import { claimDueDeliveries, enqueueQuietly } from './dispatch';

export const claimDeliveriesWithWrites = createMiddleware<AppEnv>(async (c, next) => {
  const hooks = c.get('batchHooks');
  if (!hooks) return next();
  const claimed: string[] = [];
  hooks.push({
    after: (d1) => {
      const claim = claimDueDeliveries(createDb(d1), new Date().toISOString()).toSQL();
      return [d1.prepare(claim.sql).bind(...claim.params)];
    },
    done: ([result]) => claimed.push(...(result as D1Result<{ id: string }>).results.map((row) => row.id)),
  });
  await next();
  if (!claimed.length) return;
  try {
    c.executionCtx.waitUntil(enqueueQuietly(c.env, claimed));
  } catch {
    // No execution context (a direct app.request): the cron sweep sends them.
  }
});
