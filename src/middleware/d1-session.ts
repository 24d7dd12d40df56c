// Reads across the world (§14): every request reads and writes D1 through Sessions API sessions,
// so read replicas can serve it and it still sees its own writes. A client that sends back the
// X-D1-Bookmark of an earlier answer gets reads at least as fresh as that answer; without one,
// authenticated requests start at the primary and the public gig board at the nearest replica.
// Queues and the cron use the bindings themselves (primary).
//
// A request has one session per database it touches (lib/databases.ts): c.env.DB is the session
// on DB (the directory, and the records of workspaces on DB); `c.var.d1.session(name)` opens the one
// on another database. A bookmark describes one database, so the header is the session of the
// request's home database: the key's workspace's for a keyed request (requireKey names it), DB for
// everything else. A sent bookmark starts that session; any other session starts at the primary,
// which is at least as fresh as any bookmark. For a workspace on DB the two are one session, as before.
// A write's batches also carry the statements of the request's batch hooks (lib/batch-hooks.ts).
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { type BatchHook, withBatchHooks } from '../lib/batch-hooks';
import { envWithDatabase } from '../lib/database-env';
import { databaseBinding, DIRECTORY } from '../lib/databases';
import { isPublicRead } from './browser';

export const BOOKMARK_HEADER = 'X-D1-Bookmark';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
// A D1 bookmark is hex groups joined by dashes. Anything else is ignored rather than passed on, and the
// request starts at the primary, which is at least as fresh as any bookmark.
const BOOKMARK = /^[0-9a-f]{1,32}(-[0-9a-f]{1,64}){1,7}$/i;

/** The request's D1: a session per database, opened on first use, and the bindings themselves. */
export type RequestDatabases = {
  session(name: string): D1Database;
  /** The binding itself (reads at the primary, outside any session). */
  binding(name: string): D1Database;
};

export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER)?.trim();
  const bookmark = sent && sent.length <= 256 && BOOKMARK.test(sent) ? sent : undefined;
  const bindings = c.env;
  const sessions = new Map<string, { session: D1DatabaseSession; db: D1Database }>();
  const home = () => c.get('homeDatabase') ?? DIRECTORY;
  const hooks: BatchHook[] = [];
  if (!READS.has(c.req.method)) c.set('batchHooks', hooks);
  // Opened on first use, so an answer that reads nothing from D1 (health, the document, cached rates)
  // costs no session.
  const open = (name: string): D1Database => {
    const opened = sessions.get(name);
    if (opened) return opened.db;
    const start = bookmark && name === home() ? bookmark : isPublicRead(c) ? 'first-unconstrained' : 'first-primary';
    const session = databaseBinding(bindings, name).withSession(start);
    let db = session as unknown as D1Database;
    if (!READS.has(c.req.method)) db = withBatchHooks(db, hooks, name);
    sessions.set(name, { session, db });
    return db;
  };
  c.set('d1', { session: open, binding: (name) => databaseBinding(bindings, name) });
  // Everything that reads c.env.DB gets the directory's session in its place.
  c.env = envWithDatabase(c.env, DIRECTORY, () => open(DIRECTORY));
  await next();
  // The home session's newest bookmark, or, when the request read nothing there, the one it was sent.
  const latest = sessions.get(home())?.session.getBookmark() ?? bookmark ?? (await bookmarkOfUnread(home(), sessions.get(home())));
  if (latest) c.res.headers.set(BOOKMARK_HEADER, latest);
});

/**
 * A keyed request of a workspace on another database that read only the directory (its keys, its
 * members) has no bookmark of its own database yet; one read there gets one, so the answer still
 * carries a bookmark the next request can send back. DB's session is the directory's: the request
 * read from it, or read nothing, as before.
 */
async function bookmarkOfUnread(name: string, opened: { session: D1DatabaseSession } | undefined): Promise<string | undefined> {
  if (name === DIRECTORY || !opened) return undefined;
  try {
    await opened.session.prepare('SELECT 1').first();
    return opened.session.getBookmark() ?? undefined;
  } catch {
    return undefined; // no bookmark is better than failing an answer that is already made
  }
}

/** The request's env for the records on database `name`: its DB is the request's session there. */
export const requestEnvFor = (c: Context<AppEnv>, name: string): Env =>
  name === DIRECTORY ? c.env : envWithDatabase(c.env, name, c.var.d1.session(name));
