// Webhook test fixtures: a receiver standing in for the endpoint's server (every outbound fetch is
// answered by it), the queue's messages captured so a test delivers them when it chooses, and the
// delivery rows as stored.
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { call } from '../helpers/api';
import { deliver } from '../helpers/worker';

export const QUEUE = 'workspace-webhooks';

export type Received = { url: string; headers: Headers; body: string };

/** Every outbound fetch lands here and is answered by `answer` (200 "ok" by default). */
export function receiver(answer: (request: Received, n: number) => Response | Promise<Response> = () => new Response('ok')) {
  const received: Received[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const got = { url: request.url, headers: request.headers, body: await request.text() };
    received.push(got);
    return answer(got, received.length);
  });
  return received;
}

/** Messages the worker put on the webhooks queue, instead of the local queue running them on its own. */
export function capturedQueue() {
  const messages: { delivery_id: string; delaySeconds?: number }[] = [];
  vi.spyOn(env.WEBHOOKS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
    for (const m of batch) messages.push({ ...(m.body as { delivery_id: string }), delaySeconds: m.delaySeconds });
    return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
  });
  return {
    messages,
    /** Delivers every captured message (once), as the queue would. */
    async drain() {
      const pending = messages.splice(0);
      if (pending.length) await deliver(QUEUE, pending.map((m, i) => ({ id: `m-${i}-${m.delivery_id}`, body: { delivery_id: m.delivery_id } })));
      return pending;
    },
  };
}

export async function createEndpoint(key: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/webhook-endpoints', { key, body: { url: 'https://hooks.example.com/in', events: ['*'], ...body } });
  if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; secret: string; url: string };
}

export type DeliveryRowView = {
  id: string; attempt: number; status: string; next_attempt_at: string | null; event_id: string; event_type: string; error: string | null;
  response_status: number | null; response_body: string | null; created_at: string;
};

export async function deliveriesOf(key: string, endpointId: string): Promise<DeliveryRowView[]> {
  return (await call('GET', `/api/webhook-endpoints/${endpointId}/deliveries?limit=100`, { key })).body.data;
}

/** Makes every pending attempt of the endpoint due now, as if its delay had passed. */
export async function timePasses(endpointId: string) {
  await env.DB.prepare(`UPDATE webhook_deliveries SET next_attempt_at = ? WHERE endpoint_id = ? AND status = 'pending'`).bind(new Date(Date.now() - 1000).toISOString(), endpointId).run();
}
