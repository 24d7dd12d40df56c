import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// One row per (workspace, user, Idempotency-Key): the first request's fingerprint and, once it
// finished, its answer. Scoped by workspace, so a key reused in another workspace is a new request.
export const idempotencyKeys = sqliteTable(
  'idempotency_requests',
  {
    workspaceId: text('workspace_id').notNull(),
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    // SHA-256 of method, path and body: a retry must send the same request to get the same answer.
    fingerprint: text('fingerprint').notNull(),
    // in_flight → done (its answer stored), or committed (its change made, answered from its event's
    // record) → done.
    state: text('state', { enum: ['in_flight', 'committed', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    // JSON {headers, body}: the first answer's body text and the headers worth replaying (Location).
    responseBody: text('response_body'),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId, t.key] }), index('idempotency_requests_expires_idx').on(t.expiresAt)],
);
