// Reading the event record, and keeping it to 30 days.
import { and, desc, eq, getTableColumns, gt, inArray, lt } from 'drizzle-orm';
import { events } from '../../db/schema';
import { notFound } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import type { EventFilter } from './schemas';

export const EVENT_RETENTION_DAYS = 30;
// Each purge statement deletes at most this many rows, so a backlog never makes one long write.
const PURGE_CHUNK = 500;
const PURGE_MAX_CHUNKS = 20;

export async function listEvents(ctx: WorkspaceContext, filter: EventFilter & { beforeId?: string }) {
  return ctx.db
    .select()
    .from(events)
    .where(
      and(
        eq(events.workspaceId, ctx.workspaceId),
        filter.type ? eq(events.type, filter.type) : undefined,
        filter.created_after ? gt(events.createdAt, new Date(filter.created_after).toISOString()) : undefined,
        filter.beforeId ? lt(events.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(events.id))
    .limit(filter.limit + 1);
}

export async function getEvent(ctx: WorkspaceContext, id: string) {
  const row = await ctx.db.query.events.findFirst({ where: and(eq(events.id, id), eq(events.workspaceId, ctx.workspaceId)) });
  if (!row) throw notFound('Event');
  return row;
}

/** The latest events of a workspace, without their data: the dashboard's activity. */
export function recentEvents(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, limit = 20) {
  const { data: _data, ...activityColumns } = getTableColumns(events);
  return ctx.db.select(activityColumns).from(events).where(eq(events.workspaceId, ctx.workspaceId)).orderBy(desc(events.id)).limit(limit);
}

/** Cron: delete events older than the retention period, in bounded chunks. Returns how many went. */
export async function purgeOldEvents(env: Env, now = Date.now()): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(now - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  let purged = 0;
  for (let chunk = 0; chunk < PURGE_MAX_CHUNKS; chunk++) {
    const old = db.select({ id: events.id }).from(events).where(lt(events.createdAt, cutoff)).limit(PURGE_CHUNK);
    const deleted = await db.delete(events).where(inArray(events.id, old)).returning({ id: events.id });
    purged += deleted.length;
    if (deleted.length < PURGE_CHUNK) break;
  }
  return purged;
}
