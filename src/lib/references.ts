// Checks on ids a request refers to (client_id, project_id): another workspace's record is as good
// as none, and the answer is a 422 naming the field, never a hint that the record exists.
import { and, eq } from 'drizzle-orm';
import { clients, projects } from '../db/schema';
import { invalidField } from '../errors';
import { inWorkspace, type WorkspaceContext } from './context';

export async function referencedClient(ctx: WorkspaceContext, clientId: string) {
  const client = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, clientId), inWorkspace(ctx, clients)) });
  if (!client) throw invalidField('client_id', 'No such client.');
  return client;
}

export async function referencedProject(ctx: WorkspaceContext, projectId: string) {
  const project = await ctx.db.query.projects.findFirst({ where: and(eq(projects.id, projectId), inWorkspace(ctx, projects)) });
  if (!project) throw invalidField('project_id', 'No such project.');
  return project;
}

export async function assertReferencedProject(ctx: WorkspaceContext, projectId: string | null | undefined) {
  if (projectId) await referencedProject(ctx, projectId);
}

/** A project named with a client must be one of that client's (422 naming `project_id` otherwise). */
export async function assertProjectOfClient(ctx: WorkspaceContext, projectId: string | null | undefined, clientId: string) {
  if (!projectId) return;
  const project = await referencedProject(ctx, projectId);
  if (project.clientId !== clientId) throw invalidField('project_id', 'The project belongs to another client.');
}
