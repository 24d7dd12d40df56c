// Webhook endpoints of a workspace (§11): created, read, changed, deleted and their secrets rotated
// by an admin. Every query is scoped to the workspace; the URL rules are checked on every write.
import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import { webhookEndpoints } from '../../db/schema';
import { config } from '../../config';
import { ApiError, invalidField, notFound } from '../../errors';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { changedRows, insertIf } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type CreateEndpointInput, MAX_ENDPOINTS, type UpdateEndpointInput } from './schemas';
import { newSigningSecret, sealSecret } from './secrets';
import { webhookUrlProblem } from './url-rules';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export const serializeEndpoint = (row: EndpointRow) => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: JSON.parse(row.events) as string[],
  status: row.status,
  disabled_reason: row.disabledReason,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

function assertUrlAllowed(env: Env, url: string) {
  const problem = webhookUrlProblem(url, config(env).WEBHOOK_ALLOWED_HOSTS);
  if (problem) throw invalidField('url', problem);
}

export async function listEndpoints(ctx: WorkspaceContext, limit: number, beforeId?: string) {
  return ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(inWorkspace(ctx, webhookEndpoints), beforeId ? lt(webhookEndpoints.id, beforeId) : undefined))
    .orderBy(desc(webhookEndpoints.id))
    .limit(limit + 1);
}

export async function getEndpoint(ctx: WorkspaceContext, id: string): Promise<EndpointRow> {
  const row = await ctx.db.query.webhookEndpoints.findFirst({ where: and(eq(webhookEndpoints.id, id), inWorkspace(ctx, webhookEndpoints)) });
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

/** A new endpoint and its secret, shown this once. At most 16 per workspace, guarded in SQL. */
export async function createEndpoint(ctx: WorkspaceContext, input: CreateEndpointInput): Promise<{ row: EndpointRow; secret: string }> {
  assertUrlAllowed(ctx.env, input.url);
  const secret = newSigningSecret();
  const now = nowIso();
  const row: EndpointRow = {
    id: newId('webhookEndpoint'), workspaceId: ctx.workspaceId, url: input.url, description: input.description ?? null,
    events: JSON.stringify(input.events), status: 'enabled', disabledReason: null, secret: await sealSecret(ctx.env, secret),
    previousSecret: null, previousSecretExpiresAt: null, failingSince: null, createdAt: now, updatedAt: now,
  };
  const room = ctx.db.select({ n: count() }).from(webhookEndpoints).where(inWorkspace(ctx, webhookEndpoints));
  const [inserted] = await ctx.db.batch([insertIf(ctx.db, webhookEndpoints, row, sql`(${room}) < ${MAX_ENDPOINTS}`)]);
  if (changedRows(inserted) === 0) throw new ApiError('conflict', `A workspace has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`);
  return { row, secret };
}

export async function updateEndpoint(ctx: WorkspaceContext, id: string, input: UpdateEndpointInput): Promise<EndpointRow> {
  const before = await getEndpoint(ctx, id);
  if (input.url !== undefined) assertUrlAllowed(ctx.env, input.url);
  const set: Partial<EndpointRow> = { updatedAt: nowIso() };
  if (input.url !== undefined) set.url = input.url;
  if (input.description !== undefined) set.description = input.description;
  if (input.events !== undefined) set.events = JSON.stringify(input.events);
  if (input.status === 'enabled' && before.status === 'disabled') Object.assign(set, { status: 'enabled', disabledReason: null, failingSince: null });
  if (input.status === 'disabled' && before.status === 'enabled') Object.assign(set, { status: 'disabled', disabledReason: 'manual' });
  const [updated] = await ctx.db.update(webhookEndpoints).set(set).where(and(eq(webhookEndpoints.id, id), inWorkspace(ctx, webhookEndpoints))).returning();
  if (!updated) throw notFound('Webhook endpoint');
  return updated;
}

export async function deleteEndpoint(ctx: WorkspaceContext, id: string): Promise<void> {
  const deleted = await ctx.db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), inWorkspace(ctx, webhookEndpoints))).returning({ id: webhookEndpoints.id });
  if (!deleted.length) throw notFound('Webhook endpoint');
}

/**
 * A new secret for the endpoint. The one it replaces keeps signing beside it for
 * `expirePreviousInHours` (0: not at all); one older than that stops now, so at most two sign.
 */
export async function rotateSecret(ctx: WorkspaceContext, id: string, expirePreviousInHours: number): Promise<{ row: EndpointRow; secret: string }> {
  const before = await getEndpoint(ctx, id);
  const secret = newSigningSecret();
  const now = new Date();
  const keepPrevious = expirePreviousInHours > 0;
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({
      secret: await sealSecret(ctx.env, secret),
      previousSecret: keepPrevious ? before.secret : null,
      previousSecretExpiresAt: keepPrevious ? new Date(now.getTime() + expirePreviousInHours * 3_600_000).toISOString() : null,
      updatedAt: now.toISOString(),
    })
    .where(and(eq(webhookEndpoints.id, id), inWorkspace(ctx, webhookEndpoints), eq(webhookEndpoints.secret, before.secret)))
    .returning();
  if (!row) throw new ApiError('conflict', 'The secret was rotated by another request at the same time; try again.');
  return { row, secret };
}
