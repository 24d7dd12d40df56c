// The webhooks queue consumer: one message, one delivery attempt (§11, Standard Webhooks).
//  1. Claim the attempt with a guarded UPDATE and a lease: a duplicate message finds it taken or
//     done and does nothing; a message early for its attempt waits.
//  2. Check the endpoint (enabled, URL still allowed), sign with every live secret, POST with a 15 s
//     timeout and no redirects.
//  3. Record the outcome in one batch: the attempt's result, the next attempt if one is left (with
//     its delay, or the answer's Retry-After), and the endpoint's health (410 disables it at once;
//     five days of nothing but failures disables it too).
// At most six attempts run at once in one isolate, whatever the batch size.
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { config } from '../../config';
import { readAnswerStart } from '../../lib/bounded-read';
import { systemContext, type WorkspaceContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { changedRows, insertIf, previousChanged } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { type DeliveryRow, deliveryBody } from './deliveries';
import { enqueueAttempt } from './enqueue';
import type { EndpointRow } from './endpoints';
import { WebhookMessage } from './message';
import { FAILING_DISABLES_AFTER_MS, nextDelayMs, retryAfterMs } from './schedule';
import { openSecret, signature } from './secrets';
import { webhookUrlProblem } from './url-rules';

export const WEBHOOKS_JOB = 'webhooks';
const TIMEOUT_MS = 15_000;
const LEASE_MS = 60_000;
const RESPONSE_BODY_BYTES = 1024;
export const MAX_CONCURRENT_DELIVERIES = 6;

/** A slot among the six this isolate may use at once. */
let running = 0;
const waiting: (() => void)[] = [];
async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_DELIVERIES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

type Attempted = { status: number | null; body: string | null; error: string | null; durationMs: number; retryAfter: string | null };

export async function consumeWebhooks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = WebhookMessage.safeParse(message.body);
      if (!parsed.success) return message.ack();
      try {
        const waitSeconds = await inSlot(() => deliver(env, parsed.data.delivery_id));
        if (waitSeconds) message.retry({ delaySeconds: waitSeconds });
        else message.ack();
      } catch (err) {
        console.error(JSON.stringify({ level: 'error', message: 'webhook delivery could not be recorded; will retry', delivery_id: parsed.data.delivery_id, reason: String(err) }));
        message.retry({ delaySeconds: 10 });
      }
    }),
  );
}

/** Makes the attempt if it is due and free. Returns seconds to wait when the message came early. */
async function deliver(env: Env, deliveryId: string): Promise<number | void> {
  const db = createDb(env.DB);
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const [claimed] = await db
    .update(webhookDeliveries)
    .set({ leaseUntil })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, new Date(now.getTime() + 1000).toISOString()),
        or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now.toISOString())),
      ),
    )
    .returning();
  if (!claimed) {
    const row = await db.query.webhookDeliveries.findFirst({ where: eq(webhookDeliveries.id, deliveryId) });
    const dueIn = row?.status === 'pending' && row.nextAttemptAt ? Date.parse(row.nextAttemptAt) - now.getTime() : 0;
    return dueIn > 1000 ? Math.min(43_200, Math.ceil(dueIn / 1000)) : undefined;
  }
  const ctx = systemContext(env, claimed.workspaceId, WEBHOOKS_JOB);
  const endpoint = await ctx.db.query.webhookEndpoints.findFirst({ where: eq(webhookEndpoints.id, claimed.endpointId) });
  if (!endpoint) return;
  const attempted = await attempt(ctx, endpoint, claimed);
  await record(ctx, endpoint, { ...claimed, leaseUntil }, attempted);
}

async function attempt(ctx: WorkspaceContext, endpoint: EndpointRow, row: DeliveryRow): Promise<Attempted> {
  const refused = (error: string): Attempted => ({ status: null, body: null, error, durationMs: 0, retryAfter: null });
  if (endpoint.status !== 'enabled') return refused(`The endpoint is disabled (${endpoint.disabledReason}).`);
  const urlProblem = webhookUrlProblem(endpoint.url, config(ctx.env).WEBHOOK_ALLOWED_HOSTS);
  if (urlProblem) return refused(`The URL is no longer allowed: ${urlProblem}`);
  const body = await deliveryBody(ctx, row);
  if (body === null) return refused('The event is no longer kept (events are kept 30 days).');

  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = [await openSecret(ctx.env, endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date().toISOString()) {
    secrets.push(await openSecret(ctx.env, endpoint.previousSecret));
  }
  const signatures = await Promise.all(secrets.map((secret) => signature(secret, row.eventId, timestamp, body)));
  const started = Date.now();
  try {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'workspace-api-webhooks',
        'webhook-id': row.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatures.join(' '),
      },
      body,
    });
    const answer = await readAnswerStart(res, RESPONSE_BODY_BYTES);
    return { status: res.status, body: answer, error: null, durationMs: Date.now() - started, retryAfter: res.headers.get('Retry-After') };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return { status: null, body: null, error: timedOut ? `No answer within ${TIMEOUT_MS / 1000} s.` : `Could not connect: ${String(err)}`, durationMs: Date.now() - started, retryAfter: null };
  }
}

async function record(ctx: WorkspaceContext, endpoint: EndpointRow, row: DeliveryRow, result: Attempted): Promise<void> {
  const now = new Date();
  const at = now.toISOString();
  const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
  const gone = result.status === 410;
  const stillEnabled = endpoint.status === 'enabled';
  const failingSince = succeeded ? null : (endpoint.failingSince ?? at);
  const disable = gone ? 'gone' : !succeeded && stillEnabled && now.getTime() - Date.parse(failingSince!) >= FAILING_DISABLES_AFTER_MS ? 'failing' : null;
  // A disabled endpoint gets no retry: recovering its failures is the admin's call once it is enabled.
  const delay = succeeded || disable || !stillEnabled ? null : nextDelayMs(row.attempt, retryAfterMs(result.retryAfter, now.getTime()));
  const next: DeliveryRow | null =
    delay === null
      ? null
      : {
          ...row, id: newId('webhookDelivery'), attempt: row.attempt + 1, status: 'pending', responseStatus: null, responseBody: null, durationMs: null,
          error: null, nextAttemptAt: new Date(now.getTime() + delay).toISOString(), enqueuedAt: at, leaseUntil: null, createdAt: at, completedAt: null,
        };

  const recordOutcome = ctx.db
    .update(webhookDeliveries)
    .set({
      status: succeeded ? 'succeeded' : 'failed', responseStatus: result.status, responseBody: result.body, durationMs: result.durationMs,
      error: result.error ?? (succeeded ? null : `The endpoint answered ${result.status}.`), nextAttemptAt: next?.nextAttemptAt ?? null,
      leaseUntil: null, completedAt: at,
    })
    .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.leaseUntil, row.leaseUntil!)));
  const recordHealth = ctx.db
    .update(webhookEndpoints)
    .set({ failingSince, ...(disable ? { status: 'disabled' as const, disabledReason: disable, updatedAt: at } : {}) })
    // Only the attempt that recorded its outcome speaks for the endpoint's health.
    .where(
      and(
        eq(webhookEndpoints.id, endpoint.id),
        sql`exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.id} = ${row.id} and ${webhookDeliveries.completedAt} = ${at})`,
        disable ? eq(webhookEndpoints.status, 'enabled') : undefined,
      ),
    );
  const [updated] = next
    ? await ctx.db.batch([recordOutcome, insertIf(ctx.db, webhookDeliveries, next, previousChanged), recordHealth])
    : await ctx.db.batch([recordOutcome, recordHealth]);
  const log = { delivery_id: row.id, endpoint_id: endpoint.id, event_id: row.eventId, attempt: row.attempt, status: result.status, error: result.error, duration_ms: result.durationMs };
  if (succeeded) console.log(JSON.stringify({ level: 'info', message: 'webhook delivered', ...log }));
  else console.warn(JSON.stringify({ level: 'warn', message: next ? 'webhook attempt failed; will retry' : 'webhook delivery failed for good', ...log, next_attempt_at: next?.nextAttemptAt ?? null, disabled: disable }));
  if (next && changedRows(updated) > 0) {
    await enqueueAttempt(ctx.env, next.id, Math.min(43_200, Math.ceil(delay! / 1000))).catch((err) =>
      console.warn(JSON.stringify({ level: 'warn', message: 'webhook retry not enqueued; the sweep will send it', delivery_id: next.id, reason: String(err) })),
    );
  }
}

