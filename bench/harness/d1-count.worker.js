// A worker around the built app (index.js beside it) whose D1 binding counts round trips and whose
// responses say how many they made (X-Bench-D1-Calls): a statement run (first/all/run/raw), a batch
// or an exec each count as one; X-Bench-D1-Batches counts the batches alone. Statements are proxied so bind() keeps counting and batch() gets
// the real ones back.
import app from './index.js';

const ROUND_TRIPS = new Set(['first', 'all', 'run', 'raw']);

function countingD1(db, counter) {
  const targets = new WeakMap();
  const wrap = (stmt) => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        const value = target[prop];
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args) => wrap(value.apply(target, args));
        if (ROUND_TRIPS.has(prop)) return (...args) => { counter.calls++; return value.apply(target, args); };
        return value.bind(target);
      },
    });
    targets.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql) => wrap(target.prepare(sql));
      if (prop === 'batch') return (statements) => { counter.calls++; counter.batches++; return target.batch(statements.map((s) => targets.get(s) ?? s)); };
      if (prop === 'exec') return (sql) => { counter.calls++; return target.exec(sql); };
      const value = target[prop];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export default {
  async fetch(request, env, ctx) {
    const counter = { calls: 0, batches: 0 };
    const response = await app.fetch(request, { ...env, DB: countingD1(env.DB, counter) }, ctx);
    const counted = new Response(response.body, response);
    counted.headers.set('X-Bench-D1-Calls', String(counter.calls));
    counted.headers.set('X-Bench-D1-Batches', String(counter.batches));
    return counted;
  },
};
