// Reads across the world (§14): every request reads and writes D1 through one Sessions API session,
// so read replicas can serve it and it still sees its own writes. A client that sends back the
// X-D1-Bookmark of an earlier answer gets reads at least as fresh as that answer; without one,
// authenticated requests start at the primary and the public gig board at the nearest replica.
// Every answer carries the session's bookmark. Queues and the cron use the binding itself (primary).
// A write's batches also carry the statements of its batch hooks (lib/batch-hooks.ts).
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { type BatchHook, withBatchHooks } from '../lib/batch-hooks';
import { isPublicRead } from './browser';

export const BOOKMARK_HEADER = 'X-D1-Bookmark';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
// A D1 bookmark is hex groups joined by dashes. Anything else is ignored rather than passed on, and the
// request starts at the primary, which is at least as fresh as any bookmark.
const BOOKMARK = /^[0-9a-f]{1,32}(-[0-9a-f]{1,64}){1,7}$/i;

export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER)?.trim();
  const bookmark = sent && sent.length <= 256 && BOOKMARK.test(sent) ? sent : undefined;
  const binding = c.env.DB;
  let session: D1DatabaseSession | undefined;
  let db: D1Database | undefined;
  const hooks: BatchHook[] = [];
  if (!READS.has(c.req.method)) c.set('batchHooks', hooks);
  // Opened on first use, so an answer that reads nothing from D1 (health, the document, cached rates)
  // costs no session. Everything below reads c.env.DB, and the session stands in for the binding.
  const open = (): D1Database => {
    session = binding.withSession(bookmark ?? (isPublicRead(c) ? 'first-unconstrained' : 'first-primary'));
    db = session as unknown as D1Database;
    if (!READS.has(c.req.method)) db = withBatchHooks(db, hooks);
    return db;
  };
  c.env = Object.defineProperty({ ...c.env }, 'DB', { get: () => db ?? open(), enumerable: true });
  await next();
  // The session's newest bookmark, or, when the request read nothing, the one it was sent.
  const latest = session?.getBookmark() ?? bookmark;
  if (latest) c.res.headers.set(BOOKMARK_HEADER, latest);
});
