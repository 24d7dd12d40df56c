// The transfers queue message: written by the producer (service.ts, the sweep) and read by the
// consumer and the dead-letter consumer. One definition, so the two ends cannot drift apart.
import { z } from '@hono/zod-openapi';
import { idPattern } from '../../lib/ids';

export const TransferMessage = z.object({ transfer_id: z.string().regex(idPattern('transfer')) });

export type TransferMessageBody = z.infer<typeof TransferMessage>;
