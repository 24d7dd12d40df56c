// Runs before each test file. The files of one test worker share its runtime and storage (isolating
// each file in a runtime of its own spent more time starting runtimes than running tests), so each
// file starts as if on new storage: the schema migrated (applied once per worker; a no-op after), every
// table emptied, and the KV namespaces cleared.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
// What the worker entry registers at start (src/registrations.ts), for tests that call a consumer directly.
import '../../src/registrations';
import { forgetHeldRates } from '../../src/modules/rates/convertible';
import { deliver } from './worker';

// Every database that holds workspaces has the whole schema (src/lib/databases.ts).
for (const db of [env.DB, env.DB_WORKSPACES_2]) {
  await applyD1Migrations(db, env.TEST_MIGRATIONS);
  const { results: tables } = await db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' AND name NOT LIKE 'gigs_fts%'",
  ).all<{ name: string }>();
  // Foreign keys are checked when the batch commits, by when every table is empty. (The gig search
  // index follows the gigs through its triggers.)
  await db.batch([db.prepare('PRAGMA defer_foreign_keys = on'), ...tables.map(({ name }) => db.prepare(`DELETE FROM "${name}"`))]);
}

for (const kv of [env.RATES_KV, env.INVITES_KV]) {
  for (let page = await kv.list(); page.keys.length; page = await kv.list()) {
    await Promise.all(page.keys.map(({ name }) => kv.delete(name)));
  }
}
forgetHeldRates();

// The worker imports its cron and queue consumers on their first event (src/index.ts) and keeps that
// import. In this runtime an import is a request to the module server, so it is made here, by an
// empty batch, before any test's events run side by side: a batch awaiting another event's import in
// flight would go on as that event's I/O, and its acks and D1 calls would fail.
await deliver('workspace-webhooks', []);
