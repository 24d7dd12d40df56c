// Where a workspace's records live (docs/scaling.md). DB holds the directory: users, keys, workspaces,
// memberships, invitations, the waitlist and the public gig board. A workspace's records (clients,
// projects, invoices, payments, expenses, events, transfers, suggestions, webhooks, emails, recurring
// invoices, roll-ups, idempotency records) live in the database its directory row names in
// `workspaces.database`: null is DB. Every database has the whole schema (the same migrations), and
// a workspace placed elsewhere has a mirror of its workspace row and of its members' user rows
// there, for the foreign keys (modules/workspaces/mirror.ts).
//
// Every request's middleware reads this module, so it builds no tables or schemas (the queue
// messages' `database` field is in database-name.ts); the directory row that names a workspace's
// database is read with its key (middleware/key-lookup.ts).
import { config } from '../config';
import { d1Named, databaseNameOf, envWithDatabase, rootEnv } from './database-env';

/** The binding that holds the directory, and every workspace whose `database` is null. */
export const DIRECTORY = 'DB';

/** Every database that holds workspaces' records, DB first (the var WORKSPACE_DATABASES). */
export const workspaceDatabases = (env: Env): string[] => config(env).WORKSPACE_DATABASES;

/** The name a directory row's `database` stands for. */
export const databaseOf = (row: { database: string | null }): string => row.database ?? DIRECTORY;

/** The D1 binding named `name`. In a request, DB is the request's directory session (d1-session.ts). */
export function databaseBinding(env: Env, name: string): D1Database {
  const binding = d1Named(rootEnv(env), name);
  if (!binding) throw new Error(`${name} is not a D1 binding of this worker`);
  return binding;
}

const jobEnvs = new WeakMap<Env, Map<string, Env>>();

/** The env a job acts in for the records on database `name`: its DB is that database. */
export function withDatabase(env: Env, name: string): Env {
  const root = rootEnv(env);
  if (name === DIRECTORY) return root;
  let byName = jobEnvs.get(root);
  if (!byName) jobEnvs.set(root, (byName = new Map()));
  let derived = byName.get(name);
  if (!derived) byName.set(name, (derived = envWithDatabase(root, name, databaseBinding(root, name))));
  return derived;
}

/**
 * Where a new (non-personal) workspace goes: the database at FNV-1a(id) mod the number of databases.
 * Deterministic, so a retried creation lands where the first did, and even over ULIDs, whose random
 * part the hash spreads. Null when that is DB (the column's "DB").
 */
export function placeNewWorkspace(env: Env, workspaceId: string): string | null {
  const names = workspaceDatabases(env);
  const name = names[fnv1a(workspaceId) % names.length]!;
  return name === DIRECTORY ? null : name;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** What a queue message adds to say which database its record is in: nothing for DB, so messages
 *  about DB's records keep the shape they always had. */
export function messageRoute(env: Env): { database?: string } {
  const name = databaseNameOf(env);
  return name === DIRECTORY ? {} : { database: name };
}
