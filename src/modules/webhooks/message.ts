// The webhooks queue message: one delivery attempt to make. Written by dispatch.ts (after a write,
// by the sweep, by the consumer for a retry) and read by consumer.ts; one definition for both ends.
import { z } from '@hono/zod-openapi';
import { DatabaseName } from '../../lib/database-name';
import { idPattern } from '../../lib/ids';

export const WebhookMessage = z.object({ delivery_id: z.string().regex(idPattern('webhookDelivery')), database: DatabaseName.optional() });

export type WebhookMessageBody = z.infer<typeof WebhookMessage>;
