// What every service verb is handed: the database, the bindings, the workspace it acts in and who
// is acting. Built once per request by the auth middleware (`c.get('ctx')`), or by a cron or queue
// job with a `system` actor. Services never see Hono and never take a bare user id.
import { eq } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { ROLES, type Role } from '../db/schema';
import { createDb, type Db } from './db';

export { ROLES, type Role };

/** Who did it: a user with a key, the worker's own job, the operator's admin token (§9), or the client. */
export type Actor =
  | { type: 'user'; id: string; name: string }
  | { type: 'system'; id: null; name: string }
  | { type: 'operator'; id: null; name: string }
  // The client on a document's page (§18: accepting or declining a quote), by the name they typed.
  | { type: 'client'; id: null; name: string };

/** Enough to read and write one workspace's records and their events. `timeZone` is the
 *  workspace's (IANA): what "today" and "overdue" mean for its records. */
export type WorkspaceContext = { db: Db; env: Env; workspaceId: string; actor: Actor; timeZone: string };

/**
 * A request made with an API key: the key's user, acting in the key's workspace with their role there.
 * `db` holds the workspace's records, in the database named `database` (lib/databases.ts);
 * `directory` is DB, which holds users, keys, workspaces, memberships, invitations and gigs. For a
 * workspace on DB both are the same session.
 */
export type ServiceContext = WorkspaceContext & {
  directory: Db;
  database: string;
  actor: Extract<Actor, { type: 'user' }>;
  userId: string;
  keyId: string;
  role: Role;
};

/**
 * The context a cron or queue job acts in: `job` names it in the events it writes (e.g.
 * `transfers`). A job whose records do not depend on the workspace's today (transfers,
 * suggestions) may leave the time zone at UTC rather than look it up.
 */
export function systemContext(env: Env, workspaceId: string, job: string, timeZone = 'UTC'): WorkspaceContext {
  return { db: createDb(env.DB), env, workspaceId, timeZone, actor: { type: 'system', id: null, name: job } };
}

/** Roles from lowest to highest; each can do everything the ones below it can. */
export const roleRank = (role: Role): number => ROLES.indexOf(role);

export const hasRole = (role: Role, needed: Role): boolean => roleRank(role) >= roleRank(needed);

/** The condition every query on a workspace's records starts with. */
export const inWorkspace = (ctx: Pick<WorkspaceContext, 'workspaceId'>, table: { workspaceId: SQLiteColumn }) =>
  eq(table.workspaceId, ctx.workspaceId);
