// The suggestions queue message, read by the consumer and the dead-letter consumer, written by
// service.ts. One definition for both ends.
import { z } from '@hono/zod-openapi';
import { DatabaseName } from '../../lib/database-name';
import { messageRoute } from '../../lib/databases';
import { idPattern } from '../../lib/ids';

export const SuggestionMessage = z.object({ suggestion_id: z.string().regex(idPattern('suggestion')), database: DatabaseName.optional() });

export type SuggestionMessageBody = z.infer<typeof SuggestionMessage>;

/** The message for one suggestion of a workspace whose records are on `env`'s database. */
export const suggestionMessage = (suggestionId: string, env?: Env): SuggestionMessageBody => ({ suggestion_id: suggestionId, ...(env ? messageRoute(env) : {}) });

/**
 * `max_retries` of the workspace-suggestions consumer in wrangler.toml (both environments): the
 * runtime delivers a message up to this many times plus one. The consumer retries a provider that
 * does not answer while a retry is left, and on the last delivery fails the job itself with the
 * provider's reason rather than leave it to the dead-letter queue's generic one. Change both
 * together; test/suggestions/suggestions.test.ts checks that they agree.
 */
export const SUGGESTION_MAX_RETRIES = 3;

/** Whether the runtime will deliver this message again if it is retried now. */
export const retryLeft = (attempts: number) => attempts <= SUGGESTION_MAX_RETRIES;
