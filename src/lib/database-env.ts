// An Env whose DB is another database: how the jobs and a request's services reach the database
// that holds a workspace's records without each of them knowing there is more than one. Everything
// below reads `env.DB`; the cron runs its record tasks with such an env per database, a queue
// consumer with the one its message names, and a keyed request hands its services one whose DB is
// its workspace's database. The derived env remembers its database's name (to stamp on queue
// messages) and the env it came from (so the configuration is checked once, not once per copy).
// What a D1 binding is, and how its name is spelt, is said here once for the configuration, the
// routing (databases.ts) and the cron's query budget alike.

/** A D1 binding's name as wrangler.toml spells it (what WORKSPACE_DATABASES and queue messages carry). */
export const BINDING_NAME = /^[A-Z][A-Z0-9_]{0,62}$/;

/** Whether `value` is a D1 database (a binding, or a session or wrapper standing in for one). */
export const isD1Database = (value: unknown): value is D1Database =>
  typeof (value as D1Database | undefined)?.prepare === 'function' && typeof (value as D1Database | undefined)?.batch === 'function';

/** The D1 binding called `name` in `env`, if there is one. */
export const d1Named = (env: Env, name: string): D1Database | undefined => {
  const value = (env as unknown as Record<string, unknown>)[name];
  return isD1Database(value) ? value : undefined;
};

const roots = new WeakMap<object, Env>();
const names = new WeakMap<object, string>();

/** The name of the binding `env.DB` stands for: DB unless the env was derived for another database. */
export const databaseNameOf = (env: Env): string => names.get(env) ?? 'DB';

/** The env a derived one was made from (itself when it was not derived). */
export const rootEnv = (env: Env): Env => roots.get(env) ?? env;

// Every request derives an env from the same few (the worker's own, the cron's): their property
// descriptors are read once each.
const descriptors = new WeakMap<object, PropertyDescriptorMap>();

function descriptorsOf(env: Env): PropertyDescriptorMap {
  let found = descriptors.get(env);
  if (!found) descriptors.set(env, (found = Object.getOwnPropertyDescriptors(env)));
  return found;
}

/** A copy of `env` whose DB is `db` (or what `db()` opens when DB is first read), the database bound
 *  as `name`. Other properties, getters included, are copied as they are (not read), so nothing the
 *  original opens lazily is opened. */
export function envWithDatabase(env: Env, name: string, db: D1Database | (() => D1Database)): Env {
  const descriptors = descriptorsOf(env);
  const DB = typeof db === 'function' ? { get: db, enumerable: true, configurable: true } : { value: db, enumerable: true, configurable: true };
  const derived = Object.defineProperties({}, { ...descriptors, DB }) as Env;
  roots.set(derived, rootEnv(env));
  names.set(derived, name);
  return derived;
}
