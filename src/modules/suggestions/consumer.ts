// The suggestions queue consumer: runs a queued job once through a provider, validates what the
// provider answered, and stores it, or marks the job failed with the reason. Guarded on
// status = 'queued', so a redelivered message does nothing, and the suggestion.completed or
// .failed event is written only by the delivery whose update took effect.
import { and, eq } from 'drizzle-orm';
import { config } from '../../config';
import { suggestions } from '../../db/schema';
import { inWorkspace, systemContext, type WorkspaceContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { changedRows } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { workContext } from './context';
import { retryLeft, SuggestionMessage } from './message';
import { localProvider } from './providers/local';
import type { SuggestionProvider } from './providers/types';
import { openAiProvider } from './providers/openai';
import { workersAiProvider } from './providers/workers-ai';
import { SuggestionList } from './schemas';
import { serializeSuggestion, type SuggestionRow } from './service';

/** The actor name of the events this job writes. */
export const SUGGESTIONS_JOB = 'suggestions';

type Outcome = Pick<SuggestionRow, 'status'> & Partial<Pick<SuggestionRow, 'suggestions' | 'error' | 'provider'>>;
type Job = { ctx: WorkspaceContext; row: SuggestionRow };

/** AI_PROVIDER's provider: local (no model, the default), openai (chat-completions) or workers-ai. */
export function providerFor(env: Env): SuggestionProvider {
  const cfg = config(env);
  switch (cfg.AI_PROVIDER) {
    case 'openai':
      return openAiProvider({ baseUrl: cfg.AI_BASE_URL, apiKey: cfg.AI_API_KEY, model: cfg.AI_MODEL, timeoutMs: cfg.AI_TIMEOUT_MS });
    case 'workers-ai':
      return workersAiProvider((env as { AI?: Ai }).AI, cfg.AI_MODEL);
    default:
      return localProvider;
  }
}

const MAX_BACKOFF_SECONDS = 300;
/** 5 s, 10 s, 20 s … between tries of a provider that did not answer. */
export const suggestionBackoffSeconds = (attempts: number) => Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** Math.max(0, attempts - 1));

/**
 * The queued job a message names, in its workspace's context. The one read not scoped by
 * workspace: a message comes from our own producer and names only the job, whose row says which
 * workspace everything after is scoped to.
 */
async function findQueuedJob(env: Env, body: unknown): Promise<Job | undefined> {
  const parsed = SuggestionMessage.safeParse(body);
  if (!parsed.success) return undefined;
  const row = await createDb(env.DB).query.suggestions.findFirst({ where: eq(suggestions.id, parsed.data.suggestion_id) });
  if (row?.status !== 'queued') return undefined;
  return { ctx: systemContext(env, row.workspaceId, SUGGESTIONS_JOB), row };
}

export async function consumeSuggestions(batch: MessageBatch<unknown>, env: Env, provider = providerFor(env)) {
  for (const message of batch.messages) {
    const job = await findQueuedJob(env, message.body);
    if (!job) {
      message.ack();
      continue;
    }
    let outcome: Outcome;
    try {
      const answer = await provider.suggest({ kind: job.row.kind, task: job.row.task, context: await workContext(job.ctx, job.row.projectId) });
      const valid = SuggestionList.safeParse(answer);
      outcome = valid.success
        ? { status: 'completed', suggestions: JSON.stringify(valid.data) }
        : { status: 'failed', error: `The provider's answer was not usable: ${valid.error.issues[0]?.path.join('.') || 'answer'}: ${valid.error.issues[0]?.message}` };
    } catch (err) {
      if (retryLeft(message.attempts)) {
        message.retry({ delaySeconds: suggestionBackoffSeconds(message.attempts) });
        continue;
      }
      outcome = { status: 'failed', error: `The provider did not answer: ${err instanceof Error ? err.message : String(err)}` };
    }
    await settle(job, { ...outcome, provider: provider.name });
    message.ack();
  }
}

/** Dead letters: jobs whose retries ran out fail with a reason instead of staying queued. */
export async function consumeSuggestionDeadLetters(batch: MessageBatch<unknown>, env: Env) {
  for (const message of batch.messages) {
    const job = await findQueuedJob(env, message.body);
    if (job) await settle(job, { status: 'failed', error: 'The job could not be completed after several attempts.' });
    message.ack();
  }
}

/** queued → completed | failed, with its event; nothing if another delivery settled it first. */
async function settle({ ctx, row }: Job, outcome: Outcome): Promise<boolean> {
  const after: SuggestionRow = { ...row, ...outcome, completedAt: nowIso() };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(suggestions)
      .set({ status: after.status, suggestions: after.suggestions, error: after.error, provider: after.provider, completedAt: after.completedAt })
      .where(and(eq(suggestions.id, row.id), inWorkspace(ctx, suggestions), eq(suggestions.status, 'queued'))),
    recordEvent(ctx, after.status === 'completed' ? 'suggestion.completed' : 'suggestion.failed', serializeSuggestion(after), { ifChanged: true }),
  ]);
  return changedRows(updated) > 0;
}
