// D1 allows 1,000 queries in one Worker invocation (Workers Paid), counted as subrequests: a
// statement run or a whole batch is one. Every task of a cron run shares one invocation, over every
// database, so they share one count: each D1 binding of the run's env counts what it sends, and the
// cron's walks through due records (lib/chunked.ts) stop while some budget is left. The next run
// carries on.
import { isD1Database, rootEnv } from './database-env';

/** What a cron run may spend, leaving room for the work that is not a walk (sweeps, purges). */
export const CRON_QUERY_BUDGET = 800;

export class QueryBudget {
  used = 0;
  constructor(readonly limit: number) {}
  get left(): number {
    return this.limit - this.used;
  }
}

const budgets = new WeakMap<object, QueryBudget>();

/** The budget a job's env counts against, if it runs under one. */
export const budgetOf = (env: Env): QueryBudget | undefined => budgets.get(rootEnv(env));

/** A copy of `env` whose D1 bindings count every query against `budget`. */
export function withQueryBudget(env: Env, budget: QueryBudget): Env {
  const counted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(env)) counted[name] = isD1Database(value) ? counting(value, budget) : value;
  budgets.set(counted, budget);
  return counted as unknown as Env;
}

const RUNS = new Set(['first', 'all', 'run', 'raw']);

function counting(d1: D1Database, budget: QueryBudget): D1Database {
  // A batch must be handed the runtime's own statements, not proxies of them.
  const realOf = new WeakMap<object, D1PreparedStatement>();
  const statement = (real: D1PreparedStatement): D1PreparedStatement => {
    const proxied = new Proxy(real, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args: unknown[]) => statement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args));
        if (RUNS.has(prop as string)) budget.used++;
        return value.bind(target);
      },
    });
    realOf.set(proxied, real);
    return proxied;
  };
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => statement(target.prepare(sql));
      if (prop === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          budget.used++;
          return target.batch(statements.map((s) => realOf.get(s) ?? s));
        };
      }
      if (prop === 'exec') return (sql: string) => (budget.used++, target.exec(sql));
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
