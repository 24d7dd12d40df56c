import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users, workspaceColumn } from './workspaces';

export const suggestions = sqliteTable(
  'suggestions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    kind: text('kind', { enum: ['plan', 'estimate', 'pricing', 'message'] }).notNull(),
    task: text('task').notNull(),
    projectId: text('project_id'),
    status: text('status', { enum: ['queued', 'completed', 'failed'] }).notNull(),
    provider: text('provider'),
    // JSON array of {title, detail, estimate_hours?, amount?}
    suggestions: text('suggestions'),
    error: text('error'),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [index('suggestions_workspace_idx').on(t.workspaceId, t.id)],
);
