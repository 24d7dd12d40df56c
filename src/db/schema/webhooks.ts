import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { workspaceColumn } from './workspaces';

// Webhook endpoints (§11): where a workspace's events are POSTed. The signing secret must stay
// usable, so it is kept AES-GCM-encrypted (modules/webhooks/secrets.ts), never hashed; during a
// rotation the previous one signs too until `previous_secret_expires_at`. `failing_since` is the
// first failed attempt since the last success: five days of that disables the endpoint.
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    url: text('url').notNull(),
    description: text('description'),
    /** JSON array of event types, or ["*"]. */
    events: text('events').notNull(),
    status: text('status', { enum: ['enabled', 'disabled'] }).notNull(),
    disabledReason: text('disabled_reason', { enum: ['gone', 'failing', 'manual'] }),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: text('previous_secret_expires_at'),
    failingSince: text('failing_since'),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_workspace_idx').on(t.workspaceId, t.status, t.id)],
);

// One row per delivery attempt (`whd_`): an attempt that fails writes the next one, due at
// `next_attempt_at`. Its state lives here, not in the queue: a cron sweep re-enqueues every due
// attempt that is not leased, so a lost message loses nothing, and the lease (claimed with a guarded
// UPDATE) keeps a duplicate message from sending twice. `payload` holds what is not in `events`:
// the `webhook.test` event. Rows are written for an event by the trigger of migration 0007, in the
// event's own batch.
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload'),
    attempt: integer('attempt').notNull().default(1),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    nextAttemptAt: text('next_attempt_at'),
    enqueuedAt: text('enqueued_at'),
    leaseUntil: text('lease_until'),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);
