// Workspaces on a chosen database, for the tests of the routing layer (src/lib/databases.ts). The
// suite binds two databases, DB and DB_WORKSPACES_2, and lists both in WORKSPACE_DATABASES
// (vitest.config.ts), so POST /api/workspaces places each new workspace by its id's hash.
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { call, requestsPerKey } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';

export const DATABASES = ['DB', 'DB_WORKSPACES_2'] as const;
export type DatabaseName = (typeof DATABASES)[number];

export const bindingOf = (name: DatabaseName): D1Database => (name === 'DB' ? env.DB : env.DB_WORKSPACES_2);
export const otherThan = (name: DatabaseName): DatabaseName => (name === 'DB' ? 'DB_WORKSPACES_2' : 'DB');

/** The `database` column of a workspace's directory row (on DB). */
export async function directoryDatabaseOf(workspaceId: string): Promise<string | null | undefined> {
  const row = await env.DB.prepare('SELECT database FROM workspaces WHERE id = ?').bind(workspaceId).first<{ database: string | null }>();
  return row === null ? undefined : row.database;
}

export type PlacedWorkspace = { id: string; key: string; owner: TestUser; database: DatabaseName };

// Who makes the workspaces, by who they are for: an owner's and a stranger's are different people.
// Test files share this module but each starts on emptied storage, so a creator is checked for.
const creators = new Map<string, TestUser>();
const made = new Map<string, number>();
const stillStored = async (user: TestUser) => (await env.DB.prepare('SELECT 1 AS one FROM users WHERE id = ?').bind(user.id).first()) !== null;
// A workspace made for one database that landed on the other, kept unused for the next call that
// wants the other one (by who and where it is), so that no workspace is made in vain.
const spares = new Map<string, PlacedWorkspace[]>();
const workspaceStored = async (id: string) => (await env.DB.prepare('SELECT 1 AS one FROM workspaces WHERE id = ?').bind(id).first()) !== null;

/**
 * A new workspace on `database`, made through POST /api/workspaces: workspaces are made until the
 * placement puts one there (each lands on either with probability 1/2, so 40 tries fail with
 * probability 2^-40). Its owner is the test user behind `who`, replaced before their key nears the
 * rate limit or they reach the 10 workspaces one person may own.
 */
export async function workspaceOn(database: DatabaseName, who = 'owner'): Promise<PlacedWorkspace> {
  const spare = spares.get(`${who}:${database}`)?.pop();
  if (spare && (await workspaceStored(spare.id))) return spare;
  for (let attempt = 0; attempt < 40; attempt++) {
    let creator = creators.get(who);
    if (!creator || (requestsPerKey.get(creator.key) ?? 0) > 100 || (made.get(creator.id) ?? 0) >= 9 || !(await stillStored(creator))) {
      creators.set(who, (creator = await createUser(`Studio founder (${who})`)));
    }
    made.set(creator.id, (made.get(creator.id) ?? 0) + 1);
    const res = await call('POST', '/api/workspaces', { key: creator.key, body: { name: `Studio ${attempt}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const placed: DatabaseName = ((await directoryDatabaseOf(res.body.workspace.id)) as DatabaseName | null) ?? 'DB';
    const workspace = { id: res.body.workspace.id, key: res.body.api_key.key, owner: creator, database: placed };
    if (placed === database) return workspace;
    spares.set(`${who}:${placed}`, [...(spares.get(`${who}:${placed}`) ?? []), workspace]);
  }
  throw new Error(`no workspace landed on ${database} in 40 tries`);
}

/** How many rows of `table` with this id each database holds. */
export async function rowsById(table: string, id: string): Promise<Record<DatabaseName, number>> {
  const count = async (name: DatabaseName) =>
    (await bindingOf(name).prepare(`SELECT count(*) AS n FROM "${table}" WHERE id = ?`).bind(id).first<{ n: number }>())!.n;
  return { DB: await count('DB'), DB_WORKSPACES_2: await count('DB_WORKSPACES_2') };
}
