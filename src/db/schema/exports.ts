import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { users, workspaceColumn } from './workspaces';

// §22: a period bundle, one ZIP of a period's documents and figures, written by a queue job into object storage
// (`file_key`, never shown; the API hands out signed links to it). `queued` until the job claims it (`running`,
// under a lease so a lost job is taken up again), then `ready` with its size, or `failed` with why.
export const exportJobs = sqliteTable(
  'exports',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** `expired`: ready once, its file removed 24 hours later (bundle/sweep.ts). */
    status: text('status', { enum: ['queued', 'running', 'ready', 'failed', 'expired'] }).notNull(),
    periodFrom: text('period_from').notNull(),
    periodTo: text('period_to').notNull(),
    /** JSON array of what it holds: invoices, credit_notes, expenses, payments, time. */
    kinds: text('kinds').notNull(),
    /** Where the documents' links point (the origin of the request that asked for it). */
    origin: text('origin').notNull(),
    /** The object's key: of the ZIP once ready, of the multipart upload being written while running. */
    fileKey: text('file_key'),
    /** The multipart upload a job writes to, until it is completed or aborted: one left open by a job that died is aborted (sweep.ts). */
    uploadId: text('upload_id'),
    size: integer('size'),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: text('lease_until'),
    failureReason: text('failure_reason'),
    completedAt: text('completed_at'),
    ...timestamps,
  },
  (t) => [index('exports_workspace_idx').on(t.workspaceId, t.id)],
);
