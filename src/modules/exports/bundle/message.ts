// The workspace-exports queue message: one period bundle to write. Read by the consumer, written by service.ts.
import { z } from '@hono/zod-openapi';
import { DatabaseName } from '../../../lib/database-name';
import { messageRoute } from '../../../lib/databases';
import { idPattern } from '../../../lib/ids';

export const ExportMessage = z.object({ export_id: z.string().regex(idPattern('export')), database: DatabaseName.optional() });

export type ExportMessageBody = z.infer<typeof ExportMessage>;

/** The message for one bundle of a workspace whose records are on `env`'s database. */
export const exportMessage = (exportId: string, env: Env): ExportMessageBody => ({ export_id: exportId, ...messageRoute(env) });

/**
 * `max_retries` of the workspace-exports consumer in wrangler.toml: a message is delivered up to this many times
 * plus one. A job that fails on its last delivery is marked failed, with why, rather than left queued.
 */
export const EXPORT_MAX_RETRIES = 3;
