// The relay (relay.ts) needs two things that belong to rooms above events, which register them at
// start (src/registrations.ts): the statement that copies a joining member's user row into the
// workspace's database (workspaces/mirror.ts), and sending the webhook deliveries the relayed events
// made there (webhooks/dispatch.ts).
import type { BatchItem } from 'drizzle-orm/batch';
import type { users } from '../../db/schema';
import type { Db } from '../../lib/db';

type UserRow = typeof users.$inferSelect;

export type RelayHandlers = {
  /** Loads the statement's maker (its module, and the tables it writes, load on the first relay that copies someone). */
  mirrorUser: () => Promise<(db: Db, user: UserRow) => BatchItem<'sqlite'>>;
  dispatchDeliveries: (env: Env) => Promise<void>;
};

const handlers: Partial<RelayHandlers> = {};

export function registerRelayHandler<K extends keyof RelayHandlers>(name: K, handler: RelayHandlers[K]): void {
  handlers[name] = handler;
}

// A handler nobody registered is a wiring mistake: it throws rather than relay half of the work.
export function relayHandler<K extends keyof RelayHandlers>(name: K): RelayHandlers[K] {
  const handler = handlers[name];
  if (!handler) throw new Error(`No relay handler registered for ${name}`);
  return handler;
}
