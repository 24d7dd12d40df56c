// The activity feed: one row per change worth a line on the dashboard. recordActivity returns an
// insert that is not yet run, so callers put it in the same db.batch as the change it describes.
import { desc, eq } from 'drizzle-orm';
import { activities } from '../../db/schema';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';

export type ActivityType =
  | 'client.created'
  | 'project.created'
  | 'invoice.created'
  | 'invoice.sent'
  | 'invoice.payment_recorded'
  | 'invoice.paid'
  | 'invoice.voided'
  | 'expense.recorded'
  | 'transfer.created'
  | 'transfer.completed'
  | 'transfer.failed';

export type ActivityEvent = { userId: string; type: ActivityType; subjectId: string; summary: string; occurredAt?: string };

export function recordActivity(db: Db, event: ActivityEvent) {
  return db.insert(activities).values({
    id: newId('activity'),
    userId: event.userId,
    type: event.type,
    subjectId: event.subjectId,
    summary: event.summary,
    occurredAt: event.occurredAt ?? nowIso(),
  });
}

export function recentActivity(db: Db, userId: string, limit = 20) {
  return db.select().from(activities).where(eq(activities.userId, userId)).orderBy(desc(activities.id)).limit(limit);
}

export const serializeActivity = (row: typeof activities.$inferSelect) => ({
  id: row.id,
  type: row.type,
  subject_id: row.subjectId,
  summary: row.summary,
  occurred_at: row.occurredAt,
});
