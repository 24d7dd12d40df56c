// Co-pilot jobs: stored as queued, run by the suggestions queue consumer (consumer.ts, which
// writes suggestion.completed or .failed), read back by id.
import { and, eq } from 'drizzle-orm';
import { suggestions } from '../../db/schema';
import { notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { assertReferencedProject } from '../../lib/references';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { suggestionMessage } from './message';
import type { SuggestionItemValue, SuggestionKindValue } from './schemas';

export type SuggestionRow = typeof suggestions.$inferSelect;

export const serializeSuggestion = (row: SuggestionRow) => ({
  id: row.id,
  status: row.status,
  kind: row.kind,
  task: row.task,
  project_id: row.projectId,
  provider: row.provider,
  // The local provider needs no model: what it answers is a sample, and says so (§6).
  sample: row.provider === 'local',
  suggestions: row.suggestions ? (JSON.parse(row.suggestions) as SuggestionItemValue[]) : [],
  error: row.error,
  created_at: row.createdAt,
  completed_at: row.completedAt,
});

export async function requestSuggestion(
  ctx: ServiceContext,
  input: { task: string; kind: SuggestionKindValue; project_id?: string | null },
): Promise<SuggestionRow> {
  await assertReferencedProject(ctx, input.project_id);
  const row: SuggestionRow = {
    id: newId('suggestion'), userId: ctx.userId, workspaceId: ctx.workspaceId, kind: input.kind, task: input.task,
    projectId: input.project_id ?? null, status: 'queued', provider: null, suggestions: null, error: null,
    createdAt: nowIso(), completedAt: null,
  };
  await ctx.db.insert(suggestions).values(row);
  try {
    await ctx.env.SUGGESTIONS_QUEUE.send(suggestionMessage(row.id, ctx.env));
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', message: 'suggestion enqueue failed', suggestion_id: row.id, reason: String(err) }));
    return failUnqueued(ctx, row);
  }
  return row;
}

/** Without a message the job would wait forever: it fails at once, saying why. */
async function failUnqueued(ctx: ServiceContext, row: SuggestionRow): Promise<SuggestionRow> {
  const failed: SuggestionRow = { ...row, status: 'failed', error: 'The job could not be queued; please try again.', completedAt: nowIso() };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(suggestions)
      .set({ status: failed.status, error: failed.error, completedAt: failed.completedAt })
      .where(and(eq(suggestions.id, row.id), inWorkspace(ctx, suggestions), eq(suggestions.status, 'queued'))),
    recordEvent(ctx, 'suggestion.failed', serializeSuggestion(failed), { ifChanged: true }),
  ]);
  // A send that failed after all reached the queue, and the job ran meanwhile: it is as it is.
  return changedRows(updated) > 0 ? failed : getSuggestion(ctx, row.id);
}

export async function getSuggestion(ctx: WorkspaceContext, id: string): Promise<SuggestionRow> {
  const row = await ctx.db.query.suggestions.findFirst({ where: and(eq(suggestions.id, id), inWorkspace(ctx, suggestions)) });
  if (!row) throw notFound('Suggestion');
  return row;
}
