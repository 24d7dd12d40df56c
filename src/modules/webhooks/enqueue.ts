// Putting delivery attempts already marked enqueued on the webhooks queue, a chunk a message batch.
// Kept apart from dispatch.ts, which claims them, so the middleware every request passes through
// (claim-with-writes.ts) can send what its batches claimed without building drizzle's tables.
import { messageRoute } from '../../lib/databases';
import type { WebhookMessageBody } from './message';

/** How many attempts one claim takes and one sendBatch carries. */
export const DISPATCH_CHUNK = 100;

export async function enqueue(env: Env, ids: string[], delaySeconds = 0) {
  for (let i = 0; i < ids.length; i += DISPATCH_CHUNK) {
    const messages = ids.slice(i, i + DISPATCH_CHUNK).map((id) => ({ body: { delivery_id: id, ...messageRoute(env) } satisfies WebhookMessageBody, delaySeconds }));
    await env.WEBHOOKS_QUEUE.sendBatch(messages);
  }
}

/** Sends one attempt, after `delaySeconds`; it is already marked enqueued. */
export const enqueueAttempt = (env: Env, id: string, delaySeconds = 0) => enqueue(env, [id], delaySeconds);

/** Puts attempts already marked enqueued on the queue; one that fails to go is left to the sweep. */
export async function enqueueQuietly(env: Env, ids: string[]): Promise<void> {
  try {
    await enqueue(env, ids);
  } catch (err) {
    console.warn(JSON.stringify({ level: 'warn', message: 'webhook enqueue failed; the sweep will send', count: ids.length, reason: String(err) }));
  }
}
