// Statements that ride along with a request's write batches. D1 runs a batch as one transaction, so a
// statement added to it commits if and only if the change does, at no extra round trip. The request's
// D1 (d1-session.ts) runs every hook on every batch it sends: `before` statements go first, `after`
// statements last, and `done` gets the results of its `after` statements once the batch committed.
// Hooks are added while the request runs (the Idempotency-Key once it is claimed, the webhook claim).

export type BatchHook = {
  before?: (d1: D1Database) => D1PreparedStatement[];
  after?: (d1: D1Database) => D1PreparedStatement[];
  done?: (results: D1Result[]) => void;
};

export function withBatchHooks(d1: D1Database, hooks: BatchHook[]): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          if (!hooks.length) return target.batch(statements);
          const before = hooks.flatMap((hook) => hook.before?.(target) ?? []);
          const after = hooks.map((hook) => hook.after?.(target) ?? []);
          const results = await target.batch([...before, ...statements, ...after.flat()]);
          const ownResults = results.slice(before.length, before.length + statements.length);
          let next = before.length + statements.length;
          hooks.forEach((hook, i) => {
            const count = after[i]!.length;
            hook.done?.(results.slice(next, next + count));
            next += count;
          });
          return ownResults;
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
