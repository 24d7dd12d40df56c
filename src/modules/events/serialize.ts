import type { events } from '../../db/schema';
import type { EventType } from './types';

export type EventRow = typeof events.$inferSelect;

export const serializeActor = (row: Pick<EventRow, 'actorType' | 'actorId' | 'actorName'>) => ({ type: row.actorType, id: row.actorId, name: row.actorName });

/** An event as the API returns it (§11). */
export const serializeEvent = (row: EventRow) => ({
  id: row.id,
  type: row.type as EventType,
  created_at: row.createdAt,
  workspace_id: row.workspaceId,
  actor: serializeActor(row),
  data: JSON.parse(row.data) as { object: { id: string } & Record<string, unknown>; previous_attributes?: Record<string, unknown> },
});

/** The dashboard's activity line for an event (its data is not needed). */
export const serializeActivity = (row: Omit<EventRow, 'data'>) => ({
  id: row.id,
  type: row.type,
  subject_id: row.objectId,
  summary: row.summary,
  occurred_at: row.createdAt,
  actor: serializeActor(row),
});
