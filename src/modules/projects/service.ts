// Projects: work for a client (or for no one in particular). Every query is scoped to the
// workspace, a client_id must name one of its clients, and every change writes its event.
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { expenses, invoices, projects, quotes, recurringInvoices, timeEntries } from '../../db/schema';
import { ApiError, invalidField, notFound } from '../../errors';
import { referencedClient } from '../../lib/references';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { listed, type Referrer, referencesOf, unreferenced } from '../../lib/referenced-by';
import { nowIso } from '../../lib/time';
import { escapeLike } from '../clients/service';
import { recordEvent } from '../events/record';
import { projectRounding } from '../time-entries/rounding';
import { updateWithEvent } from '../events/update-with-event';
import { assertConvertible } from '../rates/convertible';
import type { CreateProjectInput, ProjectFilter, UpdateProjectInput } from './schemas';

export type ProjectRow = typeof projects.$inferSelect;

export const serializeProject = (row: ProjectRow) => ({
  id: row.id,
  name: row.name,
  client_id: row.clientId,
  description: row.description,
  status: row.status,
  currency: row.currency,
  budget: row.budget,
  hourly_rate: row.hourlyRate,
  start_date: row.startDate,
  due_date: row.dueDate,
  time_rounding: projectRounding(row),
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

function toColumns(input: UpdateProjectInput): Partial<ProjectRow> {
  const columns: Partial<ProjectRow> = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.client_id !== undefined) columns.clientId = input.client_id;
  if (input.description !== undefined) columns.description = input.description;
  if (input.status !== undefined) columns.status = input.status;
  if (input.currency !== undefined) columns.currency = input.currency;
  if (input.budget !== undefined) columns.budget = input.budget;
  if (input.hourly_rate !== undefined) columns.hourlyRate = input.hourly_rate;
  if (input.start_date !== undefined) columns.startDate = input.start_date;
  if (input.due_date !== undefined) columns.dueDate = input.due_date;
  if (input.time_rounding !== undefined) {
    columns.timeRoundingMinutes = input.time_rounding?.increment_minutes ?? null;
    columns.timeRoundingMode = input.time_rounding?.mode ?? null;
  }
  return columns;
}

export async function createProject(ctx: ServiceContext, input: CreateProjectInput): Promise<ProjectRow> {
  const client = input.client_id ? await referencedClient(ctx, input.client_id) : null;
  const now = nowIso();
  const row: ProjectRow = {
    id: newId('project'), userId: ctx.userId, workspaceId: ctx.workspaceId, clientId: null, name: input.name, description: null,
    status: 'active', currency: client?.currency ?? 'USD', budget: null, hourlyRate: null, startDate: null, dueDate: null,
    timeRoundingMinutes: null, timeRoundingMode: null, createdAt: now, updatedAt: now,
    ...toColumns(input),
  };
  await assertConvertible(ctx.env, row.currency);
  await ctx.db.batch([ctx.db.insert(projects).values(row), recordEvent(ctx, 'project.created', serializeProject(row))]);
  return row;
}

export async function listProjects(ctx: WorkspaceContext, filter: ProjectFilter & { beforeId?: string }) {
  return ctx.db
    .select()
    .from(projects)
    .where(
      and(
        inWorkspace(ctx, projects),
        filter.status ? eq(projects.status, filter.status) : undefined,
        filter.client_id ? eq(projects.clientId, filter.client_id) : undefined,
        filter.q ? sql`${projects.name} LIKE ${`%${escapeLike(filter.q)}%`} ESCAPE '\\'` : undefined,
        filter.beforeId ? lt(projects.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(projects.id))
    .limit(filter.limit + 1);
}

export async function getProject(ctx: WorkspaceContext, id: string): Promise<ProjectRow> {
  const row = await ctx.db.query.projects.findFirst({ where: and(eq(projects.id, id), inWorkspace(ctx, projects)) });
  if (!row) throw notFound('Project');
  return row;
}

/**
 * What keeps a project, and keeps it with its client: what is billed or quoted on it. An invoice
 * or quote of the project is its client's (lib/references.ts), and its entries and expenses are
 * billed to that client, so neither delete nor a move to another client may leave them behind.
 */
const PROJECT_REFERRERS: Referrer[] = [
  { what: 'invoices', table: invoices, column: invoices.projectId },
  { what: 'quotes', table: quotes, column: quotes.projectId },
  { what: 'recurring invoices', table: recurringInvoices, column: recurringInvoices.projectId },
  { what: 'expenses', table: expenses, column: expenses.projectId },
  { what: 'time entries', table: timeEntries, column: timeEntries.projectId },
];

export async function updateProject(ctx: ServiceContext, id: string, input: UpdateProjectInput): Promise<ProjectRow> {
  if (input.client_id) await referencedClient(ctx, input.client_id);
  if (input.currency) await assertConvertible(ctx.env, input.currency);
  const moves = (before: ProjectRow) => input.client_id !== undefined && input.client_id !== before.clientId;
  return updateWithEvent(ctx, {
    what: 'project', table: projects, type: 'project.updated', serialize: serializeProject,
    read: async () => {
      const before = await getProject(ctx, id);
      if (moves(before)) {
        const references = await referencesOf(ctx.db, PROJECT_REFERRERS, id);
        if (references.length) throw new ApiError('conflict', `This project has ${listed(references)}; it cannot move to another client while they reference it.`);
      }
      return before;
    },
    // A reference created after that read holds the move back; the next read names it.
    guard: (before) => (moves(before) ? unreferenced(ctx.db, PROJECT_REFERRERS, id) : undefined),
    change: (before) => {
      const columns = toColumns(input);
      const { startDate, dueDate } = { ...before, ...columns };
      if (startDate && dueDate && dueDate < startDate) throw invalidField('due_date', 'due_date must not be before start_date.');
      return columns;
    },
  });
}

export async function deleteProject(ctx: ServiceContext, id: string): Promise<void> {
  await retryOnRace('project', async () => {
    const before = await getProject(ctx, id);
    // One guarded statement, so a reference created meanwhile cannot slip in between check and delete.
    const [deleted] = await ctx.db.batch([
      ctx.db.delete(projects).where(and(eq(projects.id, id), inWorkspace(ctx, projects), unreferenced(ctx.db, PROJECT_REFERRERS, id))),
      recordEvent(ctx, 'project.deleted', serializeProject(before), { ifChanged: true }),
    ]);
    if (changedRows(deleted) > 0) return true;
    const references = await referencesOf(ctx.db, PROJECT_REFERRERS, id);
    if (references.length) throw new ApiError('conflict', `This project has ${listed(references)}; archive it instead (PATCH status "archived").`);
    return undefined; // gone meanwhile (the next read says 404), or its last reference went: try again
  });
}
