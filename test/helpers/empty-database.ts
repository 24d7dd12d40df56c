// A database with nothing in it, for a migration test that fills the schema as it was before its
// migration. Each file's storage is the setup file's migrated database (setup.ts), and the pool's
// `reset()` does not reliably empty a D1 database here (it deletes Durable Objects; run alone, a
// file saw every table and trigger still there after it), so the schema is taken down explicitly:
// triggers and views, then every table, each before those it references (the search index with its own shadow tables).
import { env } from 'cloudflare:workers';

export async function emptyDatabase(db: D1Database = env.DB): Promise<void> {
  const { results } = await db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view', 'table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .all<{ type: string; name: string; sql: string | null }>();
  // A virtual table drops its shadow tables (gigs_fts_data, …) with it; they are not dropped on their own.
  const virtual = results.filter((r) => r.type === 'table' && /CREATE VIRTUAL TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  // A table goes before those it references: dropping a table whose foreign key names one already gone fails.
  const tables = results.filter((r) => r.type === 'table' && !shadow(r.name)).map((r) => r.name);
  const parents = new Map(await Promise.all(tables.map(async (name) => {
    const { results: keys } = await db.prepare(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`).bind(name).all<{ parent: string }>();
    return [name, new Set(keys.map((k) => k.parent).filter((parent) => parent !== name))] as const;
  })));
  const order: string[] = [];
  while (order.length < tables.length) {
    const next = tables.filter((t) => !order.includes(t) && tables.every((child) => order.includes(child) || child === t || !parents.get(child)!.has(t)));
    if (!next.length) throw new Error('the tables\' foreign keys form a cycle');
    order.push(...next);
  }
  const drops = [
    ...results.filter((r) => r.type === 'trigger').map((r) => `DROP TRIGGER IF EXISTS "${r.name}"`),
    ...results.filter((r) => r.type === 'view').map((r) => `DROP VIEW IF EXISTS "${r.name}"`),
    ...order.map((name) => `DROP TABLE IF EXISTS "${name}"`),
  ];
  await db.batch([db.prepare('PRAGMA defer_foreign_keys = on'), ...drops.map((sql) => db.prepare(sql))]);
  const left = await db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").first<number>('n');
  if (left !== 0) throw new Error(`the database still holds ${left} schema objects`);
}
