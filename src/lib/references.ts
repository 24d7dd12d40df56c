// Checks on ids a request refers to (client_id, project_id): someone else's record is as good as
// none, and the answer is a 422 naming the field, never a hint that the record exists.
import { and, eq } from 'drizzle-orm';
import { clients, projects } from '../db/schema';
import { invalidField } from '../errors';
import type { Db } from './db';

export async function referencedClient(db: Db, userId: string, clientId: string) {
  const client = await db.query.clients.findFirst({ where: and(eq(clients.id, clientId), eq(clients.userId, userId)) });
  if (!client) throw invalidField('client_id', 'No such client.');
  return client;
}

export async function assertReferencedProject(db: Db, userId: string, projectId: string | null | undefined) {
  if (!projectId) return;
  const project = await db.select({ id: projects.id }).from(projects).where(and(eq(projects.id, projectId), eq(projects.userId, userId))).get();
  if (!project) throw invalidField('project_id', 'No such project.');
}
