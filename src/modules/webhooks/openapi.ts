// The `webhooks` section of /openapi.json (OpenAPI 3.1): one entry per event type, each the POST a
// receiver gets, with the Standard Webhooks headers and the event as its body.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import { Event } from '../events/schemas';
import { EVENT_TYPES } from '../events/types';

const headers = z.object({
  'webhook-id': z.string().openapi({ description: 'The event id (`evt_…`), the same on every retry: deduplicate on it.' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt. Refuse deliveries more than a few minutes old.' }),
  'webhook-signature': z.string().openapi({
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the endpoint secret after `whsec_`; two while a rotation overlaps.',
  }),
});

const RECEIVER_ANSWER = {
  200: { description: 'Any 2xx within 15 s is a success. Anything else, redirects included, is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (plus up to 20 % jitter, or your Retry-After, at least 5 s and at most 10 h); 410 disables the endpoint at once.' },
};

export function registerWebhookEvents(registry: OpenAPIHono['openAPIRegistry']) {
  for (const type of [...EVENT_TYPES, 'webhook.test']) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      // Stable names for generated receivers: `webhookInvoicePaid`. The receiver checks the
      // signature, not a bearer token, so the operation declares no security scheme.
      operationId: `webhook${type.split(/[._]/).map((part) => part[0]!.toUpperCase() + part.slice(1)).join('')}`,
      security: [],
      summary: type === 'webhook.test' ? 'A test event, sent by POST /api/webhook-endpoints/{id}/test' : `The ${type} event`,
      description: `Sent to every enabled endpoint subscribed to \`${type}\` (or to \`*\`) when it happens. The body is the event as GET /api/events/{id} returns it.`,
      tags: ['Webhooks'],
      request: { headers, body: { content: { 'application/json': { schema: Event } } } },
      responses: RECEIVER_ANSWER,
    });
  }
}
