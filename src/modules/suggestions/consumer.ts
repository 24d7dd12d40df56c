// The suggestions queue consumer: runs a queued job once through a provider, validates what the
// provider answered, and stores it, or marks the job failed with the reason. Guarded on
// status = 'queued', so a redelivered message does nothing.
import { z } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { suggestions } from '../../db/schema';
import { createDb } from '../../lib/db';
import { nowIso } from '../../lib/time';
import { workContext } from './context';
import { localProvider } from './providers/local';
import type { SuggestionProvider } from './providers/types';
import { workersAiProvider } from './providers/workers-ai';
import { SuggestionList } from './schemas';

const Message = z.object({ suggestion_id: z.string() });

export function providerFor(env: Env): SuggestionProvider {
  return env.AI ? workersAiProvider(env.AI, env.AI_MODEL) : localProvider;
}

export async function consumeSuggestions(batch: MessageBatch<unknown>, env: Env, provider = providerFor(env)) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const parsed = Message.safeParse(message.body);
    const row = parsed.success ? await db.query.suggestions.findFirst({ where: eq(suggestions.id, parsed.data.suggestion_id) }) : undefined;
    if (!row || row.status !== 'queued') {
      message.ack();
      continue;
    }
    let outcome: Partial<typeof suggestions.$inferInsert>;
    try {
      const answer = await provider.suggest({ kind: row.kind, task: row.task, context: await workContext(db, row.userId, row.projectId) });
      const valid = SuggestionList.safeParse(answer);
      outcome = valid.success
        ? { status: 'completed', suggestions: JSON.stringify(valid.data) }
        : { status: 'failed', error: `The provider's answer was not usable: ${valid.error.issues[0]?.path.join('.') || 'answer'}: ${valid.error.issues[0]?.message}` };
    } catch (err) {
      if (message.attempts < 3) {
        message.retry({ delaySeconds: 5 * message.attempts });
        continue;
      }
      outcome = { status: 'failed', error: `The provider did not answer: ${err instanceof Error ? err.message : String(err)}` };
    }
    await db
      .update(suggestions)
      .set({ ...outcome, provider: provider.name, completedAt: nowIso() })
      .where(and(eq(suggestions.id, row.id), eq(suggestions.status, 'queued')));
    message.ack();
  }
}

/** Dead letters: jobs whose retries ran out fail with a reason instead of staying queued. */
export async function consumeSuggestionDeadLetters(batch: MessageBatch<unknown>, env: Env) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const parsed = Message.safeParse(message.body);
    if (parsed.success) {
      await db
        .update(suggestions)
        .set({ status: 'failed', error: 'The job could not be completed after several attempts.', completedAt: nowIso() })
        .where(and(eq(suggestions.id, parsed.data.suggestion_id), eq(suggestions.status, 'queued')));
    }
    message.ack();
  }
}
