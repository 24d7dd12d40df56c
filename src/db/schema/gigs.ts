import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { users, workspaceColumn } from './workspaces';

export const gigs = sqliteTable(
  'gigs',
  {
    // An explicit integer rowid, so the FTS5 index (gigs_fts) can point at rows as an external-content table.
    rowid: integer('rowid').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    posterName: text('poster_name').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    // JSON array of lower-case skill names.
    skills: text('skills').notNull().default('[]'),
    budgetType: text('budget_type', { enum: ['fixed', 'hourly'] }).notNull(),
    budgetMin: integer('budget_min').notNull(),
    budgetMax: integer('budget_max').notNull(),
    currency: text('currency').notNull(),
    remote: integer('remote', { mode: 'boolean' }).notNull().default(true),
    location: text('location'),
    status: text('status', { enum: ['open', 'closed'] }).notNull().default('open'),
    expiresOn: text('expires_on'),
    ...timestamps,
  },
  (t) => [
    index('gigs_status_idx').on(t.status, t.id),
    index('gigs_workspace_idx').on(t.workspaceId, t.id),
    check('gigs_budget_ordered', sql`${t.budgetMin} >= 0 AND ${t.budgetMin} <= ${t.budgetMax}`),
  ],
);
