// Statements that ride along with a request's write batches. D1 runs a batch as one transaction, so a
// statement added to it commits if and only if the change does, at no extra round trip. The request's
// D1 sessions (d1-session.ts) run every hook on every batch they send: `before` statements go first,
// `after` statements last, and `done` gets the results of its `after` statements once the batch
// committed. Each is told which database (binding name) the batch goes to; a hook that names a
// `database` rides only on that one's batches. Hooks are added while the request runs (the
// Idempotency-Key once it is claimed, the webhook claim).

export type BatchHook = {
  database?: string;
  before?: (d1: D1Database, database: string) => D1PreparedStatement[];
  after?: (d1: D1Database, database: string) => D1PreparedStatement[];
  done?: (results: D1Result[], database: string) => void;
};

export function withBatchHooks(d1: D1Database, hooks: BatchHook[], database: string): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          const riding = hooks.filter((hook) => !hook.database || hook.database === database);
          if (!riding.length) return target.batch(statements);
          const before = riding.flatMap((hook) => hook.before?.(target, database) ?? []);
          const after = riding.map((hook) => hook.after?.(target, database) ?? []);
          const results = await target.batch([...before, ...statements, ...after.flat()]);
          let next = before.length + statements.length;
          riding.forEach((hook, i) => {
            const count = after[i]!.length;
            hook.done?.(results.slice(next, next + count), database);
            next += count;
          });
          return results.slice(before.length, before.length + statements.length);
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
