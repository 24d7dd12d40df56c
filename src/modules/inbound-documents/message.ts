// The inbound queue's message (workspace-inbound): read by consumer.ts, written by receive.ts and the sweep.
// It names only the document (and its database, when not DB); the row says the rest.
import { z } from '@hono/zod-openapi';
import { DatabaseName } from '../../lib/database-name';
import { messageRoute } from '../../lib/databases';
import { idPattern } from '../../lib/ids';

export const InboundMessage = z.object({ document_id: z.string().regex(idPattern('inboundDocument')), database: DatabaseName.optional() });

export type InboundMessageBody = z.infer<typeof InboundMessage>;

/** The message for one document of a workspace whose records are on `env`'s database. */
export const inboundMessage = (documentId: string, env?: Env): InboundMessageBody => ({ document_id: documentId, ...(env ? messageRoute(env) : {}) });
