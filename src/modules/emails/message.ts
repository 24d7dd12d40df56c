// The emails queue message: one outbox row to send (written by outbox.ts), one workspace
// invitation's email (access/invitation-email.ts), one quote's (quotes/email.ts), or one about a
// proposal (proposals/email.ts; its row is in the directory). Read by consumer.ts.
import { z } from '@hono/zod-openapi';
import { DatabaseName } from '../../lib/database-name';
import { idPattern } from '../../lib/ids';

export const EmailMessage = z.union([
  z.object({ delivery_id: z.string().regex(idPattern('emailDelivery')), database: DatabaseName.optional() }),
  z.object({ invitation_id: z.string().regex(idPattern('invitation')) }),
  z.object({ quote_id: z.string().regex(idPattern('quote')), database: DatabaseName.optional() }),
  z.object({ proposal_email_id: z.string().regex(idPattern('emailDelivery')) }),
]);

export type EmailMessageBody = z.infer<typeof EmailMessage>;
