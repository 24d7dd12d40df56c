import { z } from '@hono/zod-openapi';
import { listQuery } from '../../lib/schemas';
import { EventTypeSchema } from './types';

export const ActorSchema = z
  .object({
    type: z.enum(['user', 'system', 'operator', 'client']),
    id: z.string().nullable().openapi({ description: 'The user\'s `usr_` id; null for `system` and `operator`.' }),
    name: z.string().openapi({ description: 'The user\'s name, or the job\'s (e.g. `transfers`).' }),
  })
  .openapi('Actor');

export const EventQuery = listQuery.extend({
  type: EventTypeSchema.optional(),
  created_after: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Only events created strictly after this instant (RFC 3339).' }),
});

export type EventFilter = z.infer<typeof EventQuery>;
