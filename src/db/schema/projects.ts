import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { clients } from './clients';
import { timestamps } from './columns';
import { users, workspaceColumn } from './workspaces';

export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status', { enum: ['active', 'on_hold', 'completed', 'archived'] }).notNull().default('active'),
    currency: text('currency').notNull().default('USD'),
    budget: integer('budget'),
    hourlyRate: integer('hourly_rate'),
    startDate: text('start_date'),
    dueDate: text('due_date'),
    ...timestamps,
    // How its time entries are billed (§19): both null (to the second), or an increment in minutes
    // and a mode (up, nearest, down). Applied per entry when read; the raw duration is never changed.
    timeRoundingMinutes: integer('time_rounding_minutes'),
    timeRoundingMode: text('time_rounding_mode', { enum: ['up', 'nearest', 'down'] }),
  },
  (t) => [
    index('projects_workspace_idx').on(t.workspaceId, t.id),
    index('projects_workspace_status_idx').on(t.workspaceId, t.status, t.id),
    index('projects_workspace_client_idx').on(t.workspaceId, t.clientId, t.id),
    check('projects_budget_nonneg', sql`${t.budget} IS NULL OR ${t.budget} >= 0`),
    check('projects_rate_nonneg', sql`${t.hourlyRate} IS NULL OR ${t.hourlyRate} >= 0`),
  ],
);
