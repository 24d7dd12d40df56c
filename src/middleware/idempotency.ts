// Idempotency-Key on POST: a retry with the same key and the same request (compared as canonical
// JSON) replays the first answer (with `Idempotent-Replayed: true`) instead of doing the work twice;
// the same key with another request is a 422; a retry while the first is still running is a 409,
// for at most 60 s, after which the first is taken as abandoned and the retry runs. Keys are per
// user and workspace, kept 24 hours. An attempt that failed (4xx or 5xx) before it changed anything is
// forgotten, so a corrected retry with the same key proceeds. A replay never carries a secret: keys,
// invitation codes and webhook secrets are stored only hashed, so they come back null. Fields a
// route derives from its record and a secret (an invoice's hosted links) are not stored either: the
// route's `ReplayRestore` recomputes them when it replays.
//
// Crash-safe: the key is marked `committed` in the same D1 batch as the change it made (a batch hook),
// with the record that change's event carries as the answer to replay. So a first attempt that died
// after its change, before its answer was stored, is replayed from that record, never run twice.
import { and, eq, lt, type Placeholder, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { idempotencyKeys } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import type { BatchHook } from '../lib/batch-hooks';
import { sha256Hex } from '../lib/crypto';
import { createDb, type Db } from '../lib/db';
import { statementShape } from '../lib/statement-shape';
import { nowIso } from '../lib/time';
import { uploadFingerprint } from './upload-body';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a first attempt may hold its key before a retry treats it as abandoned. */
export const IN_FLIGHT_LEASE_MS = 60 * 1000;
export const IDEMPOTENCY_KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
// Response headers worth replaying besides the body.
const REPLAYED_HEADERS = ['Location'];

type StoredResponse = { headers: Record<string, string>; body: string };
type Scope = { workspaceId: string; userId: string };

/**
 * Fields of a route's answer that carry a capability (the hosted invoice link holds its token) and
 * are derived from the record, so they are stored as null and `restore` fills them on a replay.
 */
export type ReplayRestore = {
  fields: readonly string[];
  restore: (c: Context<AppEnv>, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
};

const ofKey = (scope: Scope | typeof KEY_PLACEHOLDERS, key: string | Placeholder) =>
  and(eq(idempotencyKeys.workspaceId, scope.workspaceId), eq(idempotencyKeys.userId, scope.userId), eq(idempotencyKeys.key, key));

// The claim runs on every keyed write: its SQL text is worked out once.
const placeholder = (name: keyof typeof idempotencyKeys.$inferInsert | 'now') => sql.placeholder(name);
const KEY_PLACEHOLDERS = { workspaceId: placeholder('workspaceId'), userId: placeholder('userId') };
const clearExpiredKey = statementShape((db) =>
  db.delete(idempotencyKeys).where(and(ofKey(KEY_PLACEHOLDERS, placeholder('key')), lt(idempotencyKeys.expiresAt, placeholder('now')))));
const CLAIMED_KEY = {
  workspaceId: placeholder('workspaceId'), userId: placeholder('userId'), key: placeholder('key'), method: placeholder('method'), path: placeholder('path'),
  fingerprint: placeholder('fingerprint'), state: 'in_flight' as const, createdAt: placeholder('createdAt'), expiresAt: placeholder('expiresAt'),
};
const insertKey = statementShape((db) => db.insert(idempotencyKeys).values(CLAIMED_KEY).onConflictDoNothing().returning({ key: idempotencyKeys.key }));
// The claim riding on a route's first batch: a key already taken fails the insert, and with it the
// whole batch, so nothing the route sent with it is written.
const insertKeyOrFail = statementShape((db) => db.insert(idempotencyKeys).values(CLAIMED_KEY));

/** The times a claim made now states: clearing a key expired before `now`, and the new record's. */
function claimTimes(now = new Date()) {
  const at = now.toISOString();
  return { now: at, createdAt: at, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString() };
}
const KEY_TAKEN = /UNIQUE constraint failed: idempotency_requests\./;

export type IdempotencyMode = 'optional' | 'required';

/**
 * When the key is claimed: `before` the route runs, in a round trip of its own, or `with-first-batch`,
 * riding on the route's first D1 batch on the workspace's database. The latter only for a route whose
 * first work there is a batch and that does nothing outside D1 before it (a create that reads what it
 * references first): until that batch, the request has changed nothing a retry could repeat.
 */
export type ClaimTiming = 'before' | 'with-first-batch';

/** `successStatus` is the route's answer when it works: what a replay of a committed change says. */
export function idempotency(mode: IdempotencyMode, successStatus = 200, replay?: ReplayRestore, timing: ClaimTiming = 'before') {
  const notStored = new Set([...SECRET_FIELDS, ...(replay?.fields ?? [])]);
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header('Idempotency-Key');
    if (key === undefined) {
      if (mode === 'required') {
        throw new ApiError('idempotency_key_required', 'Send an Idempotency-Key header (a unique value per transfer, such as a UUID) so a retry cannot move money twice.');
      }
      return next();
    }
    if (!IDEMPOTENCY_KEY_SHAPE.test(key)) {
      throw new ApiError('validation_failed', 'The request is not valid.', [
        { path: 'Idempotency-Key', message: 'Use 1 to 255 visible ASCII characters.' },
      ]);
    }

    // Kept with the workspace's records, in its database: an idempotent write costs the directory nothing.
    const { db, database, workspaceId, userId } = c.get('ctx');
    const scope: Scope = { workspaceId, userId };
    // A route that takes a file is compared by the file (upload-body.ts), the others by their JSON body.
    const request: FingerprintedRequest = { method: c.req.method, path: c.req.path, body: (await uploadFingerprint(c)) ?? (await c.req.json()) };
    const fingerprint = await fingerprintOf(request);
    const hooks = c.get('batchHooks');
    const commit = commitWithChange(database, scope, key, successStatus);
    let owned = false;
    const own = () => {
      owned = true;
      hooks?.push(commit.hook);
    };
    // The answer of the request that holds the key, found when a riding claim failed.
    let answeredEarlier: Response | undefined;
    if (timing === 'with-first-batch' && hooks) {
      hooks.push(ridingClaim(database, scope, key, request.method, request.path, fingerprint, own, async () => {
        const outcome = await claim(db, scope, key, c, request, fingerprint, replay);
        if (outcome === true) return true;
        answeredEarlier = outcome;
        return false;
      }));
    } else {
      const claimed = await claim(db, scope, key, c, request, fingerprint, replay);
      if (claimed !== true) return claimed;
      own();
    }

    try {
      await next();
    } catch (err) {
      if (owned) await release(db, scope, key);
      throw err;
    }
    if (answeredEarlier) {
      // The route stopped at its first batch with an error standing in for this answer.
      c.res = undefined;
      c.res = answeredEarlier;
      return;
    }
    if (c.res.status >= 400) {
      if (owned) await release(db, scope, key);
      return;
    }
    // A riding claim that found no batch to ride on: the route wrote nothing on the workspace's
    // database, so the key is claimed now, only to store the answer.
    if (!owned && (await claim(db, scope, key, c, request, fingerprint, replay)) !== true) return;
    const stored: StoredResponse = { headers: pickHeaders(c.res.headers), body: without(notStored, await c.res.clone().text()) };
    // Most writes answer with the very record their event carries: what the batch committed already
    // replays this answer, and storing it again would cost a round trip.
    if (c.res.status === successStatus && commit.replaysAs(stored)) return;
    await db
      .update(idempotencyKeys)
      .set({ state: 'done', responseStatus: c.res.status, responseBody: JSON.stringify(stored) })
      .where(ofKey(scope, key));
  });
}

/**
 * The claim as the first statements of the route's next batch on `database`. Taken: `own()`. A key
 * already held fails that batch; `claimAlone()` then runs the claim of its own round trip, which
 * throws (409, 422), finds the answer to replay (false: the route is stopped with an error the
 * middleware answers for), or takes the key after all (released or abandoned meanwhile: the batch is
 * sent again).
 */
function ridingClaim(
  database: string, scope: Scope, key: string, method: string, path: string, fingerprint: string, own: () => void, claimAlone: () => Promise<boolean>,
): BatchHook {
  return {
    database,
    once: true,
    before: (d1) => {
      const times = claimTimes();
      return [clearExpiredKey.on(d1, { ...scope, key, ...times }), insertKeyOrFail.on(d1, { ...scope, key, method, path, fingerprint, ...times })];
    },
    done: own,
    failed: async (err, resend) => {
      if (!(err instanceof Error && KEY_TAKEN.test(err.message))) throw err;
      if (!(await claimAlone())) throw new ApiError('conflict', 'This Idempotency-Key was answered by an earlier request.');
      own();
      return resend();
    },
  };
}

// A record can vanish between our failed insert and our read (its first request failed and
// released it); the claim is then tried again, a bounded number of times.
const CLAIM_ATTEMPTS = 3;

/** true when this request now owns the key; otherwise the response to give (a replay) or a throw. */
async function claim(
  db: Db, scope: Scope, key: string, c: Context<AppEnv>, request: FingerprintedRequest, fingerprint: string, replay?: ReplayRestore,
): Promise<true | Response> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const outcome = await tryClaim(db, scope, key, c, request, fingerprint, replay);
    if (outcome !== 'released') return outcome;
  }
  throw inFlight();
}

const inFlight = () =>
  new ApiError('conflict', 'A request with this Idempotency-Key is still being processed; retry shortly.', undefined, { 'Retry-After': '1' });

async function tryClaim(
  db: Db, scope: Scope, key: string, c: Context<AppEnv>, request: FingerprintedRequest, fingerprint: string, replay?: ReplayRestore,
): Promise<true | Response | 'released'> {
  const times = claimTimes();
  // One round trip: an expired record no longer counts, so it is cleared before the insert takes the key.
  const [, inserted] = await db.batch([
    clearExpiredKey.with(db, { ...scope, key, ...times }),
    insertKey.with(db, { ...scope, key, method: c.req.method, path: c.req.path, fingerprint, ...times }),
  ]);
  if (inserted.length) return true;

  const existing = await db.query.idempotencyKeys.findFirst({
    where: ofKey(scope, key),
  });
  if (!existing) return 'released';
  if (existing.fingerprint !== fingerprint && !(await matchesEarlierFingerprint(existing.fingerprint, request))) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request.');
  }
  if (existing.state === 'in_flight' || existing.responseStatus === null || existing.responseBody === null) {
    if (Date.parse(existing.createdAt) > Date.now() - IN_FLIGHT_LEASE_MS) throw inFlight();
    // Abandoned (its worker died mid-request): take the key over, unless another retry just did.
    const [taken] = await db
      .update(idempotencyKeys)
      .set({ createdAt: nowIso() })
      .where(and(ofKey(scope, key), eq(idempotencyKeys.state, 'in_flight'), eq(idempotencyKeys.createdAt, existing.createdAt)))
      .returning({ key: idempotencyKeys.key });
    if (!taken) throw inFlight();
    return true;
  }
  const stored = JSON.parse(existing.responseBody) as StoredResponse;
  const body = replay && stored.body ? JSON.stringify(await replay.restore(c, JSON.parse(stored.body) as Record<string, unknown>)) : stored.body;
  return new Response(body || null, {
    status: existing.responseStatus,
    headers: { ...stored.headers, 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true', 'X-Request-Id': c.get('requestId') },
  });
}

/** Forgets a key whose request changed nothing; a committed one stays, to be replayed. */
async function release(db: Db, scope: Scope, key: string) {
  await db.delete(idempotencyKeys).where(and(ofKey(scope, key), eq(idempotencyKeys.state, 'in_flight')));
}

// While the request runs, response_body holds the highest event rowid before its batch; the batch
// then marks the key committed when it wrote events, with the last one's object as the answer. D1
// runs batches one at a time, so the events past that rowid are this batch's own.
const MARK_EVENTS = `UPDATE idempotency_requests SET response_body = (SELECT coalesce(max(rowid), 0) FROM events)
  WHERE workspace_id = ?1 AND user_id = ?2 AND key = ?3 AND state = 'in_flight'`;
const COMMIT_WITH_EVENTS = `UPDATE idempotency_requests SET state = 'committed', response_status = ?4,
  response_body = json_object('headers', json_object(), 'body',
    (SELECT json_extract(e.data, '$.object') || '' FROM events e WHERE e.rowid > CAST(response_body AS INTEGER) ORDER BY e.rowid DESC LIMIT 1))
  WHERE workspace_id = ?1 AND user_id = ?2 AND key = ?3 AND state = 'in_flight'
    AND EXISTS (SELECT 1 FROM events e WHERE e.rowid > CAST(response_body AS INTEGER))
  RETURNING json_extract(response_body, '$.body') AS body`;

/** The hook that commits the key with the change, and whether what it committed replays `answer` as is. */
function commitWithChange(database: string, scope: Scope, key: string, successStatus: number) {
  const bound = (d1: D1Database, sql: string, ...more: unknown[]) => d1.prepare(sql).bind(scope.workspaceId, scope.userId, key, ...more);
  let committed: StoredResponse | undefined;
  const hook: BatchHook = {
    database,
    before: (d1) => [bound(d1, MARK_EVENTS)],
    after: (d1) => [bound(d1, COMMIT_WITH_EVENTS, successStatus)],
    // Its answer as the batch stored it: no headers, and the event's object as the body.
    done: ([result]) => {
      const row = (result as D1Result<{ body: string }> | undefined)?.results[0];
      if (row) committed = { headers: {}, body: row.body };
    },
  };
  const replaysAs = (answer: StoredResponse) =>
    committed !== undefined && !Object.keys(answer.headers).length && sameJson(committed.body, answer.body);
  return { hook, replaysAs };
}

function sameJson(a: string, b: string): boolean {
  // Usually the same text already (SQLite's json_extract and JSON.stringify both write it compact,
  // keys in the order they were made); only when it is not are both put in canonical form.
  if (a === b) return true;
  try {
    return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b));
  } catch {
    return false;
  }
}

// What a stored request is compared by, and how that stays true across releases. A key outlives
// a deploy (24 h), so a retry may reach a release other than the one that stored its request:
// - the fingerprint is taken over the raw body the client sent, never over the validated one. A
//   release that gives a body schema a new optional or defaulted field (a transfer's new option)
//   changes what validation yields, not what the client sent, so a stored request still matches;
// - it is versioned (`v2:` + hex). A release that must fingerprint differently adds a version and
//   keeps recognising the ones before it (matchesEarlierFingerprint), so no retry that was a
//   replay yesterday becomes a 422 `idempotency_key_reused` today.
// Versions: unversioned (until this one): SHA-256 of "METHOD path\n" + the body as JSON, its keys
// first in the client's order, later sorted; both are recognised. v2: the same over canonical JSON.
type FingerprintedRequest = { method: string; path: string; body: unknown };
const FINGERPRINT_VERSION = 'v2';

const fingerprintOf = async ({ method, path, body }: FingerprintedRequest) =>
  `${FINGERPRINT_VERSION}:${await sha256Hex(`${method} ${path}\n${canonicalJson(body)}`)}`;

/** Whether `stored`, written by an earlier release, fingerprints this same request. */
async function matchesEarlierFingerprint(stored: string, { method, path, body }: FingerprintedRequest): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(stored)) return false;
  for (const json of new Set([canonicalJson(body), JSON.stringify(body)])) {
    if ((await sha256Hex(`${method} ${path}\n${json}`)) === stored) return true;
  }
  return false;
}

/** JSON with object keys sorted at every depth: the same request however its keys were ordered. */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
    );
  } catch (err) {
    // Nested deeper than a replacer can walk (thousands of levels): no schema accepts such a body,
    // so its exact text is as good a fingerprint as any.
    if (err instanceof RangeError) return JSON.stringify(value);
    throw err;
  }
}

// Secrets are shown once and stored only hashed: a replay gets null in their place. (A key's
// `prefix` starts like the key too, but is public: only these fields carry whole secrets.)
const SECRET_FIELDS = ['key', 'code', 'secret'];

/** The answer with these fields null wherever they hold a string. */
function without(fields: Set<string>, body: string): string {
  if (!body) return body;
  return JSON.stringify(JSON.parse(body), (field, value) => (fields.has(field) && typeof value === 'string' ? null : value));
}

function pickHeaders(headers: Headers): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}

/** Cron (on each database): drop records past their 24 hours. */
export async function purgeExpiredIdempotencyKeys(env: Env): Promise<void> {
  await createDb(env.DB).delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, nowIso()));
}
