// A worker around the built app (index.js beside it) whose D1 bindings (DB and every other database
// that holds workspaces) count round trips and rows read, through the Sessions API sessions the app
// opens on them too. Its responses say how many round trips they made (X-Bench-D1-Calls): a
// statement run (first/all/run/raw), a batch or an exec each count as one; X-Bench-D1-Batches counts
// the batches alone; X-Bench-D1-Rows-Read, -Rows-Written and -Duration-Ms sum D1's meta of each,
// X-Bench-D1-Wall-Ms the round trips' wall time as the worker sees it. Its scheduled handler runs the app's
// cron to the end (waitUntil included) and keeps the counts for GET /__bench/last-cron. Statements
// are proxied so bind() keeps counting and batch() gets the real ones back; raw() and first() are
// answered through all(), whose result carries rows_read (drizzle turns batch results into rows the
// same way).
import app from './index.js';

let lastCron = null;

function countingD1(db, counter) {
  const targets = new WeakMap();
  const read = (result) => {
    counter.rowsRead += result?.meta?.rows_read ?? 0;
    counter.rowsWritten += result?.meta?.rows_written ?? 0;
    counter.durationMs += result?.meta?.duration ?? 0;
    return result;
  };
  // The wall time of each round trip, as the worker sees it (its clock moves across I/O).
  const timed = async (run) => {
    const started = Date.now();
    try {
      return await run();
    } finally {
      counter.wallMs += Date.now() - started;
    }
  };
  const wrap = (stmt) => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        const value = target[prop];
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args) => wrap(value.apply(target, args));
        if (prop === 'all' || prop === 'run') return async () => { counter.calls++; return read(await timed(() => value.apply(target))); };
        if (prop === 'raw') {
          return async (options) => {
            counter.calls++;
            if (options?.columnNames) return value.apply(target, [options]);
            return read(await timed(() => target.all())).results.map((row) => Object.values(row));
          };
        }
        if (prop === 'first') {
          return async (column) => {
            counter.calls++;
            const row = read(await timed(() => target.all())).results[0] ?? null;
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
          const results = await timed(() => target.batch(statements.map((s) => targets.get(s) ?? s)));
          results.forEach(read);
          return results;
        };
      }
      if (prop === 'exec') return (sql) => { counter.calls++; return target.exec(sql); };
      // A session has the same prepare and batch: it counts the same way.
      if (prop === 'withSession') return (...args) => countingD1(target.withSession(...args), counter);
      const value = target[prop];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const newCounter = () => ({ calls: 0, batches: 0, rowsRead: 0, rowsWritten: 0, durationMs: 0, wallMs: 0 });

/**
 * The env with each D1 binding (anything with prepare and withSession) counting into `counter`. A service
 * binding (RENDERER) answers every property with a function, as an RPC stub does, so it is told apart by
 * `fetch`, which a D1 binding lacks.
 */
const isD1 = (value) => typeof value?.prepare === 'function' && typeof value?.withSession === 'function' && typeof value?.fetch !== 'function';
const counting = (env, counter) =>
  Object.fromEntries(Object.entries(env).map(([name, value]) => [name, isD1(value) ? countingD1(value, counter) : value]));

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/__bench/last-cron') return Response.json(lastCron);
    const counter = newCounter();
    const response = await app.fetch(request, counting(env, counter), ctx);
    const counted = new Response(response.body, response);
    counted.headers.set('X-Bench-D1-Calls', String(counter.calls));
    counted.headers.set('X-Bench-D1-Batches', String(counter.batches));
    counted.headers.set('X-Bench-D1-Rows-Read', String(counter.rowsRead));
    counted.headers.set('X-Bench-D1-Rows-Written', String(counter.rowsWritten));
    // D1's own time executing the request's statements (meta.duration), which the database spends
    // one query at a time: what bounds a database's throughput.
    counted.headers.set('X-Bench-D1-Duration-Ms', counter.durationMs.toFixed(3));
    counted.headers.set('X-Bench-D1-Wall-Ms', String(counter.wallMs));
    return counted;
  },
  async scheduled(controller, env) {
    const counter = newCounter();
    const pending = [];
    await app.scheduled(controller, counting(env, counter), { waitUntil: (p) => pending.push(p), passThroughOnException() {} });
    await Promise.all(pending);
    lastCron = counter;
  },
};
