import { z } from '@hono/zod-openapi';
import { idSchema, listQuery, pageOf, timestampSchema } from '../../lib/schemas';
import { Payment } from '../payments/schemas';
import { EventTypeSchema } from './types';

export const ActorSchema = z
  .object({
    type: z.enum(['user', 'system', 'operator', 'client']),
    id: z.string().nullable().openapi({ description: 'The user\'s `usr_` id; null for `system` and `operator`.' }),
    name: z.string().openapi({ description: 'The user\'s name, or the job\'s (e.g. `transfers`).' }),
  })
  .openapi('Actor');

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

export const EventQuery = listQuery.extend({
  type: EventTypeSchema.optional(),
  created_after: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Only events created strictly after this instant (RFC 3339).' }),
});

export const EventPage = pageOf(Event);

export type EventFilter = z.infer<typeof EventQuery>;
