// The emails queue message: one outbox row to send. Written by outbox.ts, read by consumer.ts.
import { z } from '@hono/zod-openapi';
import { DatabaseName } from '../../lib/databases';
import { idPattern } from '../../lib/ids';

export const EmailMessage = z.object({ delivery_id: z.string().regex(idPattern('emailDelivery')), database: DatabaseName.optional() });

export type EmailMessageBody = z.infer<typeof EmailMessage>;
