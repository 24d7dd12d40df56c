// Projects: work for a client (or for no one in particular). Every query filters by owner, and a
// client_id must name one of the caller's clients.
import { and, desc, eq, lt, notExists, sql } from 'drizzle-orm';
import { expenses, invoices, projects } from '../../db/schema';
import { ApiError, invalidField, notFound } from '../../errors';
import { referencedClient } from '../../lib/references';
import type { Db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { escapeLike } from '../clients/service';
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
  return columns;
}

export async function createProject(db: Db, userId: string, input: CreateProjectInput): Promise<ProjectRow> {
  const client = input.client_id ? await referencedClient(db, userId, input.client_id) : null;
  const now = nowIso();
  const [row] = await db
    .insert(projects)
    .values({
      currency: client?.currency ?? 'USD',
      ...toColumns(input),
      name: input.name,
      id: newId('project'),
      userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function listProjects(db: Db, userId: string, filter: ProjectFilter & { beforeId?: string }) {
  return db
    .select()
    .from(projects)
    .where(
      and(
        eq(projects.userId, userId),
        filter.status ? eq(projects.status, filter.status) : undefined,
        filter.client_id ? eq(projects.clientId, filter.client_id) : undefined,
        filter.q ? sql`${projects.name} LIKE ${`%${escapeLike(filter.q)}%`} ESCAPE '\\'` : undefined,
        filter.beforeId ? lt(projects.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(projects.id))
    .limit(filter.limit + 1);
}

export async function getProject(db: Db, userId: string, id: string): Promise<ProjectRow> {
  const row = await db.query.projects.findFirst({ where: and(eq(projects.id, id), eq(projects.userId, userId)) });
  if (!row) throw notFound('Project');
  return row;
}

export async function updateProject(db: Db, userId: string, id: string, input: UpdateProjectInput): Promise<ProjectRow> {
  const current = await getProject(db, userId, id);
  if (input.client_id) await referencedClient(db, userId, input.client_id);
  const start = input.start_date !== undefined ? input.start_date : current.startDate;
  const due = input.due_date !== undefined ? input.due_date : current.dueDate;
  if (start && due && due < start) throw invalidField('due_date', 'due_date must not be before start_date.');
  const [row] = await db
    .update(projects)
    .set({ ...toColumns(input), updatedAt: nowIso() })
    .where(and(eq(projects.id, id), eq(projects.userId, userId)))
    .returning();
  if (!row) throw notFound('Project');
  return row;
}

export async function deleteProject(db: Db, userId: string, id: string): Promise<void> {
  // One guarded statement: invoices and expenses keep their project, so it cannot go while they exist.
  const deleted = await db
    .delete(projects)
    .where(
      and(
        eq(projects.id, id),
        eq(projects.userId, userId),
        notExists(db.select({ one: sql`1` }).from(invoices).where(eq(invoices.projectId, id))),
        notExists(db.select({ one: sql`1` }).from(expenses).where(eq(expenses.projectId, id))),
      ),
    )
    .returning({ id: projects.id });
  if (deleted.length) return;
  await getProject(db, userId, id);
  throw new ApiError('conflict', 'This project has invoices or expenses; archive it instead (PATCH status "archived").');
}

