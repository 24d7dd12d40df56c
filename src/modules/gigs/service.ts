// The public gig board. Anyone can read it; only members of the workspace that posted a gig can
// change or remove it. Public reads show the poster's name only: no email, user or workspace id.
import { and, desc, eq, getTableColumns, gte, lt, sql } from 'drizzle-orm';
import { gigs } from '../../db/schema';
import { invalidField, notFound } from '../../errors';
import { inWorkspace, type ServiceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import type { CreateGigInput, GigFilter, UpdateGigInput } from './schemas';
import { toFtsQuery } from './search';

type GigRow = typeof gigs.$inferSelect & { proposalsCount: number };

// §24: how many proposals a gig has had (withdrawn ones aside), never who sent them.
// Written out, so that the gig's id is the outer row's whatever drizzle would qualify.
const proposalsCount = sql<number>`(SELECT count(*) FROM "proposals" p WHERE p."gig_id" = "gigs"."id" AND p."status" <> 'withdrawn')`.mapWith(Number);
const withCount = { ...getTableColumns(gigs), proposalsCount };

export const serializeGig = (row: GigRow) => ({
  id: row.id,
  title: row.title,
  description: row.description,
  skills: JSON.parse(row.skills) as string[],
  budget_type: row.budgetType,
  budget_min: row.budgetMin,
  budget_max: row.budgetMax,
  currency: row.currency,
  remote: row.remote,
  location: row.location,
  status: row.status,
  posted_by: { name: row.posterName },
  proposals_count: row.proposalsCount,
  created_at: row.createdAt,
  expires_on: row.expiresOn,
});

export async function postGig(ctx: ServiceContext, input: CreateGigInput): Promise<GigRow> {
  const now = nowIso();
  const [row] = await ctx.directory
    .insert(gigs)
    .values({
      id: newId('gig'),
      userId: ctx.userId,
      workspaceId: ctx.workspaceId,
      posterName: ctx.actor.name,
      title: input.title,
      description: input.description,
      skills: JSON.stringify([...new Set(input.skills)]),
      budgetType: input.budget_type,
      budgetMin: input.budget_min,
      budgetMax: input.budget_max,
      currency: input.currency,
      remote: input.remote,
      location: input.location ?? null,
      expiresOn: input.expires_on ?? null,
      status: 'open',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { ...row!, proposalsCount: 0 };
}

export async function listGigs(db: Db, filter: GigFilter & { beforeId?: string }) {
  const match = filter.q ? toFtsQuery(filter.q) : null;
  return db
    .select(withCount)
    .from(gigs)
    .where(
      and(
        eq(gigs.status, filter.status),
        match ? sql`${gigs.rowid} IN (SELECT rowid FROM gigs_fts WHERE gigs_fts MATCH ${match})` : undefined,
        filter.skill ? sql`EXISTS (SELECT 1 FROM json_each(${gigs.skills}) WHERE value = ${filter.skill})` : undefined,
        filter.remote !== undefined ? eq(gigs.remote, filter.remote) : undefined,
        filter.budget_type ? eq(gigs.budgetType, filter.budget_type) : undefined,
        filter.currency ? eq(gigs.currency, filter.currency) : undefined,
        filter.min_budget !== undefined ? gte(gigs.budgetMax, filter.min_budget) : undefined,
        filter.beforeId ? lt(gigs.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(gigs.id))
    .limit(filter.limit + 1);
}

export async function getGig(db: Db, id: string): Promise<GigRow> {
  const [row] = await db.select(withCount).from(gigs).where(eq(gigs.id, id));
  if (!row) throw notFound('Gig');
  return row;
}

/** A gig of the caller's workspace; another workspace's is as good as missing. */
async function ownGig(ctx: ServiceContext, id: string): Promise<typeof gigs.$inferSelect> {
  const row = await ctx.directory.query.gigs.findFirst({ where: and(eq(gigs.id, id), inWorkspace(ctx, gigs)) });
  if (!row) throw notFound('Gig');
  return row;
}

export async function updateGig(ctx: ServiceContext, id: string, input: UpdateGigInput): Promise<GigRow> {
  const current = await ownGig(ctx, id);
  const min = input.budget_min ?? current.budgetMin;
  const max = input.budget_max ?? current.budgetMax;
  if (min > max) throw invalidField('budget_max', 'budget_max must be at least budget_min.');
  const set: Partial<typeof gigs.$inferSelect> = { updatedAt: nowIso(), budgetMin: min, budgetMax: max };
  if (input.title !== undefined) set.title = input.title;
  if (input.description !== undefined) set.description = input.description;
  if (input.skills !== undefined) set.skills = JSON.stringify([...new Set(input.skills)]);
  if (input.budget_type !== undefined) set.budgetType = input.budget_type;
  if (input.currency !== undefined) set.currency = input.currency;
  if (input.remote !== undefined) set.remote = input.remote;
  if (input.location !== undefined) set.location = input.location;
  if (input.expires_on !== undefined) set.expiresOn = input.expires_on;
  if (input.status !== undefined) set.status = input.status;
  const [row] = await ctx.directory.update(gigs).set(set).where(and(eq(gigs.id, id), inWorkspace(ctx, gigs))).returning(withCount);
  if (!row) throw notFound('Gig');
  return row;
}

export async function deleteGig(ctx: ServiceContext, id: string): Promise<void> {
  const deleted = await ctx.directory.delete(gigs).where(and(eq(gigs.id, id), inWorkspace(ctx, gigs))).returning({ id: gigs.id });
  if (!deleted.length) throw notFound('Gig');
}
