import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users, workspaces } from './workspaces';

// One event per change, written in the same batch as the change (modules/events/record.ts): the
// activity feed, and what webhooks and reminders read. `data` is JSON {object, previous_attributes?};
// `summary` is the one line the dashboard shows.
export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actorType: text('actor_type', { enum: ['user', 'system', 'operator', 'client'] }).notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    objectId: text('object_id').notNull(),
    summary: text('summary').notNull(),
    data: text('data').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('events_workspace_idx').on(t.workspaceId, t.id),
    index('events_workspace_type_idx').on(t.workspaceId, t.type, t.id),
    index('events_created_idx').on(t.createdAt),
  ],
);

// Before workspaces, the dashboard's feed. Migration 0006 copied every row into events; nothing
// writes here any more. Kept, not dropped: migrations only add.
export const activities = sqliteTable(
  'activities',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    subjectId: text('subject_id').notNull(),
    summary: text('summary').notNull(),
    occurredAt: text('occurred_at').notNull(),
  },
  (t) => [index('activities_user_idx').on(t.userId, t.id)],
);
