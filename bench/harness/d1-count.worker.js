// A worker around the built app (index.js beside it) whose D1 binding counts round trips and rows
// read. Its responses say how many round trips they made (X-Bench-D1-Calls): a statement run
// (first/all/run/raw), a batch or an exec each count as one; X-Bench-D1-Batches counts the batches
// alone, and X-Bench-D1-Rows-Read sums D1's rows_read. Its scheduled handler runs the app's cron to the end (waitUntil included) and keeps the
// counts, with D1's rows_read summed, for GET /__bench/last-cron. Statements are proxied so bind()
// keeps counting and batch() gets the real ones back, and a session from withSession() counts as the
// binding does; raw() and first() are answered through all(),
// whose result carries rows_read (drizzle turns batch results into rows the same way).
import app from './index.js';

let lastCron = null;

function countingD1(db, counter) {
  const targets = new WeakMap();
  const read = (result) => {
    counter.rowsRead += result?.meta?.rows_read ?? 0;
    return result;
  };
  const wrap = (stmt) => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        const value = target[prop];
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args) => wrap(value.apply(target, args));
        if (prop === 'all' || prop === 'run') return async () => { counter.calls++; return read(await value.apply(target)); };
        if (prop === 'raw') {
          return async (options) => {
            counter.calls++;
            if (options?.columnNames) return value.apply(target, [options]);
            return read(await target.all()).results.map((row) => Object.values(row));
          };
        }
        if (prop === 'first') {
          return async (column) => {
            counter.calls++;
            const row = read(await target.all()).results[0] ?? null;
            return column === undefined || row === null ? row : row[column];
          };
        }
        return value.bind(target);
      },
    });
    targets.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql) => wrap(target.prepare(sql));
      if (prop === 'batch') {
        return async (statements) => {
          counter.calls++;
          counter.batches++;
          const results = await target.batch(statements.map((s) => targets.get(s) ?? s));
          results.forEach(read);
          return results;
        };
      }
      if (prop === 'exec') return (sql) => { counter.calls++; return target.exec(sql); };
      // The app reads and writes through a Sessions API session (§14): count that too.
      if (prop === 'withSession') return (constraint) => countingD1(target.withSession(constraint), counter);
      const value = target[prop];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const newCounter = () => ({ calls: 0, batches: 0, rowsRead: 0 });

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/__bench/last-cron') return Response.json(lastCron);
    const counter = newCounter();
    const response = await app.fetch(request, { ...env, DB: countingD1(env.DB, counter) }, ctx);
    const counted = new Response(response.body, response);
    counted.headers.set('X-Bench-D1-Calls', String(counter.calls));
    counted.headers.set('X-Bench-D1-Batches', String(counter.batches));
    counted.headers.set('X-Bench-D1-Rows-Read', String(counter.rowsRead));
    return counted;
  },
  async scheduled(controller, env) {
    const counter = newCounter();
    const pending = [];
    await app.scheduled(controller, { ...env, DB: countingD1(env.DB, counter) }, { waitUntil: (p) => pending.push(p), passThroughOnException() {} });
    await Promise.all(pending);
    lastCron = counter;
  },
};
