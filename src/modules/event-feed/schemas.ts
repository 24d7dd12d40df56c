// The event as the feed (routes.ts) and the webhook payloads (webhooks/openapi.ts) show it, with the
// records some events carry beside their object (a payment): so this room sits above payments, and
// events, which every room records into, stays below them all.
import { z } from '@hono/zod-openapi';
import { idSchema, pageOf, timestampSchema } from '../../lib/schemas';
import { ActorSchema } from '../events/schemas';
import { EventTypeSchema } from '../events/types';
import { Payment } from '../payments/schemas';

export const Event = z
  .object({
    id: idSchema('event'),
    type: EventTypeSchema,
    created_at: timestampSchema,
    workspace_id: idSchema('workspace'),
    actor: ActorSchema,
    data: z.object({
      object: z.object({ id: z.string() }).catchall(z.unknown()).openapi({ description: 'The record as the API returned it right after the change.' }),
      previous_attributes: z.record(z.string(), z.unknown()).optional().openapi({ description: 'On `*.updated` and `member.role_changed`: the changed fields\' values before the change.' }),
      payment: Payment.optional().openapi({ description: 'On `invoice.payment_recorded`: the payment just recorded.' }),
      refund: z.object({ id: z.string() }).catchall(z.unknown()).optional().openapi({ description: 'On `invoice.payment_refunded`: the refund.' }),
      credit_note: z.object({ id: z.string() }).catchall(z.unknown()).optional().openapi({ description: 'On `invoice.credited`: the credit note.' }),
    }),
  })
  .openapi('Event');

export const EventPage = pageOf(Event);
