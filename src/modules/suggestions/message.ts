// The suggestions queue message, read by the consumer and the dead-letter consumer, written by
// service.ts. One definition for both ends.
import { z } from '@hono/zod-openapi';
import { idPattern } from '../../lib/ids';

export const SuggestionMessage = z.object({ suggestion_id: z.string().regex(idPattern('suggestion')) });

export type SuggestionMessageBody = z.infer<typeof SuggestionMessage>;

/**
 * `max_retries` of the workspace-suggestions consumer in wrangler.toml: the consumer gives a
 * provider that does not answer this many tries, then fails the job itself with the reason
 * rather than leave it to the dead-letter queue's generic one. Change both together.
 */
export const SUGGESTION_MAX_RETRIES = 3;
