// The cron workload: the scheduled handler of the built app (through the D1-counting copy, run to
// its end) with 1,000 recurring invoices of which 500 are due, then with 10,000 of which the same 500
// are due. Each round first undoes the last one's invoices, then runs the cron until it has issued
// the same 500. Its wall time and the D1 rows it read should follow what is due, not how many
// schedules exist.
import { quantile } from './load.mjs';

const DUE = 500;
const ROUNDS = 5;
const SMALL = 1_000;
const LARGE = 10_000;
const seq = (count) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})`;
const LINES = JSON.stringify([{ description: 'Monthly retainer', quantity: 1, unit_amount: 250_000, tax_rate: 8.25 }]);

/** `count` schedules numbered from `from`: those up to `due` began an hour ago, the rest start in 2030. */
function schedules(account, from, count, due) {
  const at = new Date().toISOString();
  const today = at.slice(0, 10);
  const start = `CASE WHEN n <= ${due} THEN '${today}' ELSE '2030-01-01' END`;
  const startAt = `CASE WHEN n <= ${due} THEN '${new Date(Date.now() - 3_600_000).toISOString()}' ELSE '2030-01-01T00:00:00.000Z' END`;
  return `${seq(count)}
    INSERT INTO recurring_invoices (id, user_id, workspace_id, status, client_id, currency, line_items, due_in_days, interval, interval_count,
      start_date, auto_send, time_zone, next_period, next_issue_date, next_issue_at, invoices_created, link_origin, created_at, updated_at)
    SELECT 'rin_01BENCH' || printf('%016d', ${from} + n), '${account.id}', '${account.workspaceId}', 'active', '${account.clientId}', 'USD', '${LINES}', 30,
      'month', 1, ${start}, 0, 'UTC', 0, ${start}, ${startAt}, 0, 'http://app.bench', '${at}', '${at}'
    FROM seq`;
}

async function undoLastRound(db, account) {
  const issued = `SELECT id FROM invoices WHERE workspace_id = '${account.workspaceId}' AND recurring_invoice_id IS NOT NULL`;
  await db.batch([
    db.prepare(`DELETE FROM invoice_line_items WHERE invoice_id IN (${issued})`),
    db.prepare(`DELETE FROM invoices WHERE id IN (${issued})`),
    db.prepare(`UPDATE recurring_invoices SET status = 'active', next_period = 0, next_issue_date = start_date,
      next_issue_at = CASE WHEN start_date < '2030-01-01' THEN '${new Date(Date.now() - 3_600_000).toISOString()}' ELSE next_issue_at END,
      invoices_created = 0, last_invoice_id = NULL WHERE workspace_id = '${account.workspaceId}'`),
  ]);
}

// A cron run stops issuing while too little of its D1 query budget is left (src/lib/query-budget.ts),
// and the next run carries on. A round runs the cron until the 500 are issued (at most 5 runs) and
// counts all of it: the runs it took, their time, rows read and round trips.
const MAX_RUNS = 5;

async function measureSize(mf, db, account, label) {
  const worker = await mf.getWorker('count');
  const issuedSoFar = async () =>
    (await db.prepare(`SELECT count(*) AS n FROM invoices WHERE workspace_id = ? AND recurring_invoice_id IS NOT NULL`).bind(account.workspaceId).first()).n;
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    await undoLastRound(db, account);
    const round = { ms: 0, rowsRead: 0, calls: 0, cronRuns: 0 };
    for (let n = 0; n < DUE && round.cronRuns < MAX_RUNS; n = await issuedSoFar()) {
      const started = performance.now();
      await worker.scheduled({ cron: '*/15 * * * *' });
      round.ms += performance.now() - started;
      const counts = await (await worker.fetch('http://app.bench/__bench/last-cron')).json();
      round.rowsRead += counts.rowsRead;
      round.calls += counts.calls;
      round.cronRuns++;
    }
    const issued = await issuedSoFar();
    if (issued !== DUE) throw new Error(`cron workload: expected ${DUE} invoices, ${round.cronRuns} runs issued ${issued}`);
    rounds.push(round);
  }
  const median = (key) => quantile(rounds.map((r) => r[key]), 0.5);
  return {
    label, ms: Math.round(median('ms')), rows_read: median('rowsRead'), d1_calls: median('calls'), cron_runs: median('cronRuns'),
    runs_ms: rounds.map((r) => Math.round(r.ms)),
  };
}

export async function measureCron(mf, account) {
  const db = await mf.getD1Database('DB', 'app');
  // The seeded accounts' overdue invoices have never been marked: the runs that mark them share the
  // run's D1 query budget with everything else, so they go first, before anything is measured.
  const worker = await mf.getWorker('count');
  for (let run = 0; run < 10; run++) {
    await worker.scheduled({ cron: '*/15 * * * *' });
    const { n } = await db.prepare(`SELECT count(*) AS n FROM invoices WHERE status = 'open' AND overdue_notified_at IS NULL AND due_date < date('now', '-1 day')`).first();
    if (n === 0) break;
  }
  await db.prepare(schedules(account, 0, SMALL, DUE)).run();
  const small = await measureSize(mf, db, account, `${SMALL.toLocaleString('en-US')} schedules, ${DUE} due`);
  await db.prepare(schedules(account, SMALL, LARGE - SMALL, 0)).run();
  const large = await measureSize(mf, db, account, `${LARGE.toLocaleString('en-US')} schedules, ${DUE} due`);
  const ratio = (key) => Number((large[key] / small[key]).toFixed(2));
  return { due: DUE, rounds: ROUNDS, small, large, ratio: { ms: ratio('ms'), rows_read: ratio('rows_read') } };
}
