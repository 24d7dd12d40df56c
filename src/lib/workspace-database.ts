// The routing table: which database holds a workspace's records, as the directory row says.
import { eq } from 'drizzle-orm';
import { workspaces } from '../db/schema';
import { databaseBinding, databaseOf, DIRECTORY } from './databases';
import { createDb } from './db';

/**
 * The routing table's answer: the name of the binding that holds `workspaceId`'s records, read from
 * the directory; undefined for a workspace that does not exist.
 */
export async function databaseOfWorkspace(env: Env, workspaceId: string): Promise<string | undefined> {
  const row = await createDb(databaseBinding(env, DIRECTORY))
    .select({ database: workspaces.database })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  return row ? databaseOf(row) : undefined;
}

/** The D1 binding that holds `workspaceId`'s records (DB for an unknown one, which holds nothing of it). */
export async function bindingForWorkspace(env: Env, workspaceId: string): Promise<D1Database> {
  return databaseBinding(env, (await databaseOfWorkspace(env, workspaceId)) ?? DIRECTORY);
}
