// Statements that ride along with a request's write batches. D1 runs a batch as one transaction, so a
// statement added to it commits if and only if the change does, at no extra round trip. The request's
// D1 sessions (d1-session.ts) run every hook on every batch they send: `before` statements go first,
// `after` statements last, and `done` gets the results of its `after` statements once the batch
// committed. Each is told which database (binding name) the batch goes to; a hook that names a
// `database` rides only on that one's batches. Hooks are added while the request runs (the
// Idempotency-Key once it is claimed, or its claim itself; the webhook claim).

export type BatchHook = {
  database?: string;
  before?: (d1: D1Database, database: string) => D1PreparedStatement[];
  after?: (d1: D1Database, database: string) => D1PreparedStatement[];
  done?: (results: D1Result[], database: string) => void;
  /** Rides on the next batch only: it leaves the request's hooks as that batch is sent. */
  once?: boolean;
  /**
   * Rides only on batches sent once the request has prepared a statement that writes an event on
   * that database: the batch holding the event is one of them, a read before it is not.
   */
  afterEvents?: boolean;
  /**
   * The batch it rode on failed, so nothing of it was written: `failed` answers for that batch in its
   * place, with `resend()` (the same statements sent again, with the hooks riding then) or by throwing.
   */
  failed?: (err: unknown, resend: () => Promise<D1Result[]>) => Promise<D1Result[]>;
};

// How every event is written (drizzle's insert, and the relay's): see events/record.ts.
const WRITES_EVENT = /^insert into "events"/;

export function withBatchHooks(d1: D1Database, hooks: BatchHook[], database: string): D1Database {
  let eventsPrepared = false;
  const prepare = (query: string) => {
    if (!eventsPrepared && WRITES_EVENT.test(query)) eventsPrepared = true;
    return d1.prepare(query);
  };
  const batch = async (statements: D1PreparedStatement[]): Promise<D1Result[]> => {
    const riding = hooks.filter((hook) => (!hook.database || hook.database === database) && (!hook.afterEvents || eventsPrepared));
    if (!riding.length) return d1.batch(statements);
    for (const hook of riding) if (hook.once) hooks.splice(hooks.indexOf(hook), 1);
    const before = riding.flatMap((hook) => hook.before?.(d1, database) ?? []);
    const after = riding.map((hook) => hook.after?.(d1, database) ?? []);
    let results: D1Result[];
    try {
      results = await d1.batch([...before, ...statements, ...after.flat()]);
    } catch (err) {
      const recovering = riding.find((hook) => hook.failed);
      if (!recovering?.failed) throw err;
      return recovering.failed(err, () => batch(statements));
    }
    let next = before.length + statements.length;
    riding.forEach((hook, i) => {
      const count = after[i]!.length;
      hook.done?.(results.slice(next, next + count), database);
      next += count;
    });
    return results.slice(before.length, before.length + statements.length);
  };
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'batch') return batch;
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
