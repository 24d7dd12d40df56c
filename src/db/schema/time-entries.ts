import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { invoices } from './invoices';
import { projects } from './projects';
import { users, workspaceColumn } from './workspaces';

// Time entries (§19): a manual entry (duration_seconds set), or a running timer (duration_seconds
// null until it is stopped). A user has at most one running timer per workspace: the partial unique
// index is the last word on it, whatever races the API loses. `rate` (minor units per hour) and
// `currency` are taken from the project when the entry is made, so later rate changes bill only new
// work. `invoice_id` is set while an invoice bills the entry (locked); deleting that invoice releases it.
export const timeEntries = sqliteTable(
  'time_entries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    // RESTRICT: a project with time entries cannot be deleted (the API answers 409 first).
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'restrict' }),
    task: text('task'),
    notes: text('notes'),
    spentDate: text('spent_date').notNull(),
    startedAt: text('started_at'),
    stoppedAt: text('stopped_at'),
    durationSeconds: integer('duration_seconds'),
    billable: integer('billable', { mode: 'boolean' }).notNull().default(true),
    rate: integer('rate'),
    currency: text('currency').notNull(),
    invoiceId: text('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('time_entries_workspace_idx').on(t.workspaceId, t.id),
    index('time_entries_workspace_user_idx').on(t.workspaceId, t.userId, t.id),
    index('time_entries_workspace_project_idx').on(t.workspaceId, t.projectId, t.id),
    index('time_entries_workspace_spent_idx').on(t.workspaceId, t.spentDate),
    index('time_entries_invoice_idx').on(t.invoiceId),
    uniqueIndex('time_entries_one_running_uq').on(t.workspaceId, t.userId).where(sql`${t.durationSeconds} IS NULL`),
    check('time_entries_duration_bounds', sql`${t.durationSeconds} IS NULL OR (${t.durationSeconds} BETWEEN 1 AND 86400)`),
    check('time_entries_rate_nonneg', sql`${t.rate} IS NULL OR ${t.rate} >= 0`),
  ],
);
