// Webhook deliveries leave with the write that made them. A write's batch holds its change and its
// event, and the event's trigger adds a delivery for every subscribed endpoint; this hook appends one
// more statement to each of the request's batches, which marks the due deliveries enqueued and
// answers their ids. After the answer, the request only puts those ids on the queue: no extra D1
// round trip per write. Events are only ever written in batches, so a request without one made no
// deliveries (the webhook routes that make them otherwise dispatch them themselves).
import { sql } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../env';
import { withDatabase } from '../../lib/databases';
import { statementShape } from '../../lib/statement-shape';
import { claimDueDeliveries, enqueueQuietly } from './dispatch';

// Rides on every batch of every write: its SQL text is worked out once.
const claim = statementShape((db) => claimDueDeliveries(db, sql`${sql.placeholder('at')}`));

export const claimDeliveriesWithWrites = createMiddleware<AppEnv>(async (c, next) => {
  const hooks = c.get('batchHooks');
  if (!hooks) return next();
  // Delivery ids by the database whose batches claimed them (a workspace's records, events and
  // deliveries live on its database).
  const claimed = new Map<string, string[]>();
  hooks.push({
    after: (d1) => [claim.on(d1, { at: new Date().toISOString() })],
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
