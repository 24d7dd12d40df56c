// The transfers queue message: written by the producer (service.ts, for the API and the sweep) and
// read by the consumer and the dead-letter consumer. One definition, so the ends cannot drift apart.
import { z } from '@hono/zod-openapi';
import { DatabaseName } from '../../lib/database-name';
import { messageRoute } from '../../lib/databases';
import { idPattern } from '../../lib/ids';

export const TransferMessage = z.object({ transfer_id: z.string().regex(idPattern('transfer')), database: DatabaseName.optional() });

export type TransferMessageBody = z.infer<typeof TransferMessage>;

/** The message for one transfer of a workspace whose records are on `env`'s database (the consumer reads it there). */
export const transferMessage = (transferId: string, env?: Env): TransferMessageBody => ({ transfer_id: transferId, ...(env ? messageRoute(env) : {}) });

/**
 * `max_retries` of the workspace-transfers consumer in wrangler.toml (both environments): the
 * runtime delivers a message up to this many times plus one, then moves it to the dead-letter
 * queue. Change both together; test/transfers/lifecycle.test.ts checks that they agree.
 */
export const TRANSFER_MAX_RETRIES = 5;
