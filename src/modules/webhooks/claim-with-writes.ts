// Webhook deliveries leave with the write that made them. A write's batch holds its change and its
// event, and the event's trigger adds a delivery for every subscribed endpoint; this wrapper around a
// request's D1 appends one more statement to each batch, which marks the due deliveries enqueued and
// answers their ids. After the answer, the request only puts those ids on the queue: no extra D1
// round trip per write. Events are only ever written in batches, so a request without one made no
// deliveries (the webhook routes that make them otherwise dispatch them themselves).
import { createDb } from '../../lib/db';
import { claimDueDeliveries } from './dispatch';

export type WriteClaims = { claimed: string[] };

export function claimingWithWrites(d1: D1Database): { db: D1Database; claims: WriteClaims } {
  const claims: WriteClaims = { claimed: [] };
  const db = new Proxy(d1, {
    get(target, prop) {
      if (prop === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          const claim = claimDueDeliveries(createDb(target), new Date().toISOString()).toSQL();
          const results = await target.batch([...statements, target.prepare(claim.sql).bind(...claim.params)]);
          const claimed = results.pop() as D1Result<{ id: string }>;
          claims.claimed.push(...claimed.results.map((row) => row.id));
          return results;
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, claims };
}
