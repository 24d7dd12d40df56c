import { z } from '@hono/zod-openapi';
import { idSchema, listQuery, pageOf, text, timestampSchema } from '../../lib/schemas';
import { EVENT_TYPES } from '../events/types';

export const MAX_ENDPOINTS = 16;

const SubscribedTypes = z
  .array(z.enum(['*', ...EVENT_TYPES], { message: 'Unknown event type: use one of the types of GET /openapi.json `webhooks`, or "*".' }))
  .min(1)
  .max(EVENT_TYPES.length)
  .transform((types) => (types.includes('*') ? ['*'] : [...new Set(types)]))
  .openapi({ description: 'The event types to receive, or `["*"]` for all of them.', example: ['invoice.paid', 'transfer.failed'] });

const Url = z.url({ message: 'Use an absolute URL such as https://books.example.com/hooks.' }).max(2048).openapi({
  description: 'Where events are POSTed: `https`, a host name or a globally reachable address, no credentials.',
  example: 'https://books.example.com/hooks/workspace',
});

export const CreateEndpointBody = z
  .strictObject({
    url: Url,
    description: text(500).nullable().optional(),
    events: SubscribedTypes,
  })
  .openapi('CreateWebhookEndpoint');

export const UpdateEndpointBody = z
  .strictObject({
    url: Url.optional(),
    description: text(500).nullable().optional(),
    events: SubscribedTypes.optional(),
    status: z.enum(['enabled', 'disabled']).optional().openapi({ description: '`enabled` re-enables a disabled endpoint; `disabled` stops deliveries (`disabled_reason: "manual"`).' }),
  })
  .openapi('UpdateWebhookEndpoint');

export const RotateSecretBody = z
  .strictObject({
    expire_previous_in_hours: z.number().int().min(0).max(72).default(24).openapi({ description: 'How long the previous secret keeps signing beside the new one; 0 ends it at once.' }),
  })
  .openapi('RotateWebhookSecret');

export const Endpoint = z
  .object({
    id: idSchema('webhookEndpoint'),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.enum(['gone', 'failing', 'manual']).nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('WebhookEndpoint');

export const EndpointWithSecret = Endpoint.extend({
  secret: z.string().nullable().openapi({ description: '`whsec_` + base64: the signing secret, shown only in this answer (null in an idempotent replay).' }),
}).openapi('WebhookEndpointWithSecret');

export const EndpointPage = pageOf(Endpoint);

export const Delivery = z
  .object({
    id: idSchema('webhookDelivery'),
    event_id: z.string(),
    event_type: z.string(),
    attempt: z.number().int().openapi({ description: '1..8: which attempt at this event this row records.' }),
    status: z.enum(['pending', 'succeeded', 'failed']),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable().openapi({ description: 'The first 1024 bytes of the answer.' }),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable().openapi({ description: 'Why the attempt failed, when there was no answer to show (timeout, refused URL).' }),
    next_attempt_at: timestampSchema.nullable().openapi({ description: 'When the next attempt is due (pending: this one; failed: the retry), or null.' }),
    created_at: timestampSchema,
  })
  .openapi('WebhookDelivery');

export const DeliveryPage = pageOf(Delivery);

export const DeliveryQuery = listQuery.extend({
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
});

export const Accepted = z.object({ delivery_id: idSchema('webhookDelivery') }).openapi('WebhookDeliveryAccepted');

export const ResendBody = z.strictObject({ endpoint_id: idSchema('webhookEndpoint').openapi({ description: 'A webhook endpoint of this workspace.' }) }).openapi('ResendEvent');

export const RecoverBody = z
  .strictObject({ since: z.iso.datetime({ offset: true }).openapi({ description: 'Re-send every delivery that failed for good since this instant.' }) })
  .openapi('RecoverWebhookDeliveries');

export const Recovered = z.object({ count: z.number().int() }).openapi('WebhookRecovery');

export type CreateEndpointInput = z.infer<typeof CreateEndpointBody>;
export type UpdateEndpointInput = z.infer<typeof UpdateEndpointBody>;
