// The delivery log of an endpoint, and the ways an admin asks for deliveries by hand: a test event,
// one event again, every failure since a moment. Each makes a pending attempt that dispatch.ts
// puts on the queue at once.
import { and, desc, eq, gte, inArray, isNull, lt, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { events, webhookDeliveries } from '../../db/schema';
import { ApiError, invalidField } from '../../errors';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { serializeActor, serializeEvent } from '../events/serialize';
import { getEvent } from '../events/service';
import { type EndpointRow, getEndpoint } from './endpoints';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const serializeDelivery = (row: DeliveryRow) => ({
  id: row.id,
  event_id: row.eventId,
  event_type: row.eventType,
  attempt: row.attempt,
  status: row.status,
  response_status: row.responseStatus,
  response_body: row.responseBody,
  duration_ms: row.durationMs,
  error: row.error,
  next_attempt_at: row.nextAttemptAt,
  created_at: row.createdAt,
});

export async function listDeliveries(ctx: WorkspaceContext, endpointId: string, filter: { limit: number; status?: DeliveryRow['status']; beforeId?: string }) {
  await getEndpoint(ctx, endpointId);
  return ctx.db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        inWorkspace(ctx, webhookDeliveries),
        filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
        filter.beforeId ? lt(webhookDeliveries.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(filter.limit + 1);
}

/** A first attempt at `eventId` for `endpoint`, due now. */
function pendingAttempt(endpoint: EndpointRow, event: { id: string; type: string }, payload: string | null = null): DeliveryRow {
  const now = nowIso();
  return {
    id: newId('webhookDelivery'), workspaceId: endpoint.workspaceId, endpointId: endpoint.id, eventId: event.id, eventType: event.type,
    payload, attempt: 1, status: 'pending', responseStatus: null, responseBody: null, durationMs: null, error: null,
    nextAttemptAt: now, enqueuedAt: null, leaseUntil: null, createdAt: now, completedAt: null,
  };
}

function assertEnabled(endpoint: EndpointRow) {
  if (endpoint.status !== 'enabled') {
    throw new ApiError('invalid_state', `The endpoint is disabled (${endpoint.disabledReason}); enable it first with PATCH {"status": "enabled"}.`);
  }
}

/** A signed `webhook.test` event for the endpoint, whatever it subscribes to; logged, not in /api/events. */
export async function sendTestEvent(ctx: WorkspaceContext, endpointId: string): Promise<DeliveryRow> {
  const endpoint = await getEndpoint(ctx, endpointId);
  assertEnabled(endpoint);
  const event = {
    id: newId('event'), type: 'webhook.test', created_at: nowIso(), workspace_id: ctx.workspaceId,
    actor: serializeActor({ actorType: ctx.actor.type, actorId: ctx.actor.id, actorName: ctx.actor.name }),
    data: { object: { id: endpoint.id, url: endpoint.url, message: 'A test event: your endpoint receives and verifies deliveries.' } },
  };
  const row = pendingAttempt(endpoint, event, JSON.stringify(event));
  await ctx.db.insert(webhookDeliveries).values(row);
  return row;
}

/** One event of the workspace delivered again to one of its endpoints. */
export async function resendEvent(ctx: WorkspaceContext, eventId: string, endpointId: string): Promise<DeliveryRow> {
  const event = await getEvent(ctx, eventId);
  const endpoint = await getEndpoint(ctx, endpointId).catch(() => {
    throw invalidField('endpoint_id', 'No webhook endpoint of this workspace has this id.');
  });
  assertEnabled(endpoint);
  const row = pendingAttempt(endpoint, event);
  await ctx.db.insert(webhookDeliveries).values(row);
  return row;
}

/**
 * Every delivery to the endpoint that failed for good since `since` (its last attempt failed and no
 * later attempt is pending or succeeded) starts over with a new first attempt. Returns how many.
 */
export async function recoverFailed(ctx: WorkspaceContext, endpointId: string, since: string): Promise<number> {
  const endpoint = await getEndpoint(ctx, endpointId);
  assertEnabled(endpoint);
  const later = alias(webhookDeliveries, 'later');
  const failed = await ctx.db
    .select({ eventId: webhookDeliveries.eventId, eventType: webhookDeliveries.eventType, payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        inWorkspace(ctx, webhookDeliveries),
        eq(webhookDeliveries.status, 'failed'),
        isNull(webhookDeliveries.nextAttemptAt),
        gte(webhookDeliveries.createdAt, new Date(since).toISOString()),
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(later)
            .where(and(eq(later.endpointId, endpoint.id), eq(later.eventId, webhookDeliveries.eventId), inArray(later.status, ['pending', 'succeeded']))),
        ),
      ),
    )
    .groupBy(webhookDeliveries.eventId);
  const rows = failed.map((f) => pendingAttempt(endpoint, { id: f.eventId, type: f.eventType }, f.payload));
  // 17 columns a row: 5 rows a statement stay under D1's 100 bound parameters.
  for (let i = 0; i < rows.length; i += 5) await ctx.db.insert(webhookDeliveries).values(rows.slice(i, i + 5));
  return rows.length;
}

/** The body a delivery posts: its own payload (test events), or the event as the API returns it. */
export async function deliveryBody(ctx: WorkspaceContext, row: DeliveryRow): Promise<string | null> {
  if (row.payload) return row.payload;
  const event = await ctx.db.query.events.findFirst({ where: and(eq(events.id, row.eventId), inWorkspace(ctx, events)) });
  return event ? JSON.stringify(serializeEvent(event)) : null;
}
