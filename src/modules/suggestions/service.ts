// Co-pilot jobs: stored as queued, run by the suggestions queue consumer, read back by id.
import { and, eq } from 'drizzle-orm';
import { suggestions } from '../../db/schema';
import { notFound } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { assertReferencedProject } from '../../lib/references';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import type { SuggestionMessageBody } from './message';
import type { SuggestionItemValue, SuggestionKindValue } from './schemas';

export type SuggestionRow = typeof suggestions.$inferSelect;

export const serializeSuggestion = (row: SuggestionRow) => ({
  id: row.id,
  status: row.status,
  kind: row.kind,
  task: row.task,
  project_id: row.projectId,
  provider: row.provider,
  suggestions: row.suggestions ? (JSON.parse(row.suggestions) as SuggestionItemValue[]) : [],
  error: row.error,
  created_at: row.createdAt,
  completed_at: row.completedAt,
});

export async function requestSuggestion(
  ctx: ServiceContext,
  input: { task: string; kind: SuggestionKindValue; project_id?: string | null },
): Promise<SuggestionRow> {
  const { db, env } = ctx;
  await assertReferencedProject(ctx, input.project_id);
  const [row] = await db
    .insert(suggestions)
    .values({ id: newId('suggestion'), userId: ctx.userId, workspaceId: ctx.workspaceId, kind: input.kind, task: input.task, projectId: input.project_id ?? null, status: 'queued', createdAt: nowIso() })
    .returning();
  try {
    await env.SUGGESTIONS_QUEUE.send({ suggestion_id: row!.id } satisfies SuggestionMessageBody);
  } catch (err) {
    // Without a message the job would wait forever: say so on the job itself.
    console.error(JSON.stringify({ level: 'error', message: 'suggestion enqueue failed', suggestion_id: row!.id, reason: String(err) }));
    const [failed] = await db
      .update(suggestions)
      .set({ status: 'failed', error: 'The job could not be queued; please try again.', completedAt: nowIso() })
      .where(eq(suggestions.id, row!.id))
      .returning();
    return failed!;
  }
  return row!;
}

export async function getSuggestion(ctx: WorkspaceContext, id: string): Promise<SuggestionRow> {
  const row = await ctx.db.query.suggestions.findFirst({ where: and(eq(suggestions.id, id), inWorkspace(ctx, suggestions)) });
  if (!row) throw notFound('Suggestion');
  return row;
}
