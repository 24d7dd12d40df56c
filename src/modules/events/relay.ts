// Member events (member.added, member.removed, member.role_changed) describe a change to the
// directory, a membership, and are written in that change's batch, so into DB's events table. For a
// workspace whose records live on another database (lib/databases.ts) that row is an outbox entry:
// it is copied into the workspace's database (INSERT OR IGNORE by id, so its trigger makes the
// webhook deliveries there exactly once) and only then deleted from DB. The request that made the
// change relays at once, so its answer and the next read see the event; the cron relays whatever a
// failure between the two steps left behind.
import { and, eq, exists, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { events, users, workspaces } from '../../db/schema';
import { createDb, type Db } from '../../lib/db';
import { databaseBinding, DIRECTORY, withDatabase } from '../../lib/databases';
import { relayHandler } from './relay-handlers';

const CHUNK = 50;

type MemberEventData = { object: { user: { id: string } } };

/** Moves `workspaceId`'s events from the directory into `target`, its database. Returns how many. */
export async function relayEvents(directory: Db, target: Db, workspaceId: string, database: string): Promise<number> {
  // On DB the directory's events are the workspace's own: nothing to move.
  if (database === DIRECTORY) return 0;
  let moved = 0;
  for (;;) {
    const rows = await directory.select().from(events).where(eq(events.workspaceId, workspaceId)).limit(CHUNK);
    if (!rows.length) return moved;
    // Whoever joined needs their user row there before they make a record (mirror.ts): copied in the
    // same batch as the event, so a failure leaves both for the next relay.
    const joined = rows.filter((row) => row.type === 'member.added').map((row) => (JSON.parse(row.data) as MemberEventData).object.user.id);
    const people = joined.length ? await directory.select().from(users).where(inArray(users.id, joined)) : [];
    const mirrorUser = people.length ? await relayHandler('mirrorUser')() : undefined;
    // One statement per row: ten columns each, under D1's 100 bound parameters.
    const [first, ...rest] = [
      ...people.map((person) => mirrorUser!(target, person)),
      ...rows.map((row) => target.insert(events).values(row).onConflictDoNothing()),
    ];
    await target.batch([first!, ...rest]);
    await directory.delete(events).where(inArray(events.id, rows.map((row) => row.id)));
    moved += rows.length;
    if (rows.length < CHUNK) return moved;
  }
}

/**
 * After a directory change has been written: relays its events, and should that fail, leaves them
 * to the cron rather than fail a request whose change is done.
 */
export async function relayQuietly(directory: Db, target: Db, workspaceId: string, database: string): Promise<void> {
  try {
    await relayEvents(directory, target, workspaceId, database);
  } catch (err) {
    console.warn(JSON.stringify({ level: 'warn', message: 'member events not relayed; the cron will', workspace_id: workspaceId, database, reason: String(err) }));
  }
}

/** relayQuietly through the binding itself (no request session), then queues the deliveries it made. */
export async function relayEventsOf(env: Env, workspaceId: string, database: string): Promise<void> {
  if (database === DIRECTORY) return;
  const target = withDatabase(env, database);
  await relayQuietly(createDb(databaseBinding(env, DIRECTORY)), createDb(target.DB), workspaceId, database);
  await relayHandler('dispatchDeliveries')(target);
}

/** Cron: every outbox event a failed request left in the directory goes to its workspace's database. */
export async function relayStrandedEvents(env: Env): Promise<number> {
  const directory = createDb(databaseBinding(env, DIRECTORY));
  // One query: the workspaces placed elsewhere, each probed on the events index, so the cost follows
  // how many such workspaces exist, not how many events DB holds.
  const stranded = await directory
    .select({ id: workspaces.id, database: workspaces.database })
    .from(workspaces)
    .where(and(isNotNull(workspaces.database), ne(workspaces.database, DIRECTORY), exists(directory.select({ one: sql`1` }).from(events).where(eq(events.workspaceId, workspaces.id)))))
    .limit(100);
  let moved = 0;
  for (const { id, database } of stranded) {
    const target = withDatabase(env, database!);
    moved += await relayEvents(directory, createDb(target.DB), id, database!);
  }
  return moved;
}
