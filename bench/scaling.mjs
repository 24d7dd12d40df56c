// npm run bench:scaling: the figures docs/scaling.md is written from. Builds and serves what would
// deploy (as `npm run bench` does) with both workspace databases listed in WORKSPACE_DATABASES,
// seeds the bench accounts, then measures:
// - bytes per invoice: D1's own database size (meta.size_after) before and after the seed, and
//   before and after the write load below (invoices made through the API, 5 lines each);
// - D1 round trips, rows read and written, and D1's own execution time per request of the main
//   workloads, on DB and on DB_WORKSPACES_2;
// - write throughput of POST /v1/invoices on one database, and two loads at once: both on DB, or
//   one on each database.
// About two minutes. Writes bench/scaling-results.json.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle, RENDERER_BUILD } from './harness/build.mjs';
import { countD1Calls } from './harness/d1-count.mjs';
import { quantile, runLoad } from './harness/load.mjs';
import { applyMigrations, seed } from './harness/seed.mjs';
import { serve } from './harness/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 10;
const WRITE_RUN = { amount: 100_000, maxSeconds: 4 };
const WRITE_ROUNDS = 3;
const json = { 'content-type': 'application/json' };
const auth = (key) => ({ authorization: `Bearer ${key}` });
const invoiceBody = (clientId) =>
  JSON.stringify({
    client_id: clientId,
    line_items: Array.from({ length: 5 }, (_, i) => ({ description: `Line ${i + 1}`, quantity: 2.5, unit_amount: 12_000 + i, tax_rate: 8.25 })),
  });

const sizeOf = async (db) => (await db.prepare('SELECT 1').run()).meta.size_after;
const countOf = async (db, sql, ...args) => (await db.prepare(sql).bind(...args).first()).n;

/** A workspace made through the API (as its writer) that the placement put on `database`. */
async function workspaceOn(url, db, writer, database) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const res = await fetch(`${url}/api/workspaces`, { method: 'POST', headers: { host: 'app.bench', ...auth(writer.key), ...json }, body: JSON.stringify({ name: `Bench ${attempt}` }) });
    const made = await res.json();
    if (res.status !== 201) throw new Error(`POST /api/workspaces: ${res.status} ${JSON.stringify(made)}`);
    const { database: placed } = await db.prepare('SELECT database FROM workspaces WHERE id = ?').bind(made.workspace.id).first();
    if ((placed ?? 'DB') !== database) continue;
    const client = await fetch(`${url}/v1/clients`, { method: 'POST', headers: { host: 'app.bench', ...auth(made.api_key.key), ...json }, body: JSON.stringify({ name: 'Bench client' }) });
    return { id: made.workspace.id, key: made.api_key.key, clientId: (await client.json()).id, database };
  }
  throw new Error(`no workspace landed on ${database}`);
}

const postInvoices = (url, account) => ({
  url: `${url}/v1/invoices`, host: 'app.bench', method: 'POST', headers: { ...auth(account.key), ...json }, body: invoiceBody(account.clientId), connections: CONNECTIONS, ...WRITE_RUN,
});

function summarize(runs) {
  const rps = runs.map((r) => (r.statuses[201] ?? 0) / r.seconds);
  const latencies = runs.flatMap((r) => r.latencies);
  const failed = runs.reduce((sum, r) => sum + Object.entries(r.statuses).filter(([s]) => s !== '201').reduce((a, [, n]) => a + n, 0), 0);
  return { rps: Math.round(quantile(rps, 0.5)), p50_ms: Math.round(quantile(latencies, 0.5) * 10) / 10, p99_ms: Math.round(quantile(latencies, 0.99)), non_201: failed };
}

async function main() {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'workspace-scaling-'));
  let mf;
  try {
    const bundle = buildBundle(root, join(work, 'dist'));
    const renderer = buildBundle(root, join(work, 'renderer'), RENDERER_BUILD);
    const served = await serve({ root, bundlePath: bundle.path, rendererPath: renderer.path, persistDir: join(work, 'state'), vars: { WORKSPACE_DATABASES: 'DB,DB_WORKSPACES_2' } });
    mf = served.mf;
    const db = await mf.getD1Database('DB', 'app');
    const second = await mf.getD1Database('DB_WORKSPACES_2', 'app');
    await applyMigrations(second, root);

    // Bytes per seeded invoice, with its share of line items, payments, expenses, events and indexes.
    // The empty schema's size is the second database's, migrated and still empty (seed migrates DB).
    const emptySize = await sizeOf(second);
    const accounts = await seed(mf, root);
    const seededSize = await sizeOf(db);
    const seeded = {
      invoices: await countOf(db, 'SELECT count(*) AS n FROM invoices'),
      line_items: await countOf(db, 'SELECT count(*) AS n FROM invoice_line_items'),
      payments: await countOf(db, 'SELECT count(*) AS n FROM payments'),
      expenses: await countOf(db, 'SELECT count(*) AS n FROM expenses'),
      events: await countOf(db, 'SELECT count(*) AS n FROM events'),
      bytes_empty: emptySize,
      bytes_seeded: seededSize,
    };
    seeded.bytes_per_invoice = Math.round((seededSize - emptySize) / seeded.invoices);

    const onSecond = await workspaceOn(served.url, db, accounts.writer, 'DB_WORKSPACES_2');
    const alsoOnDb = await workspaceOn(served.url, db, accounts.writer, 'DB');
    const largeInvoice = (await db.prepare('SELECT id FROM invoices WHERE workspace_id = ? ORDER BY id DESC LIMIT 1').bind(accounts.large.workspaceId).first()).id;
    const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const fresh = () => ({ headers: { 'idempotency-key': randomUUID() } });
    const workloads = [
      ['GET /v1/invoices (100,000 invoices)', { path: '/v1/invoices', headers: auth(accounts.large.key) }],
      ['GET /v1/invoices/{id} (100,000 invoices)', { path: `/v1/invoices/${largeInvoice}`, headers: auth(accounts.large.key) }],
      ['GET /api/workflow/dashboard (100,000 invoices)', { path: `/api/workflow/dashboard?from=${day(-364)}&to=${day(0)}`, headers: auth(accounts.large.key) }],
      ['GET /api/events (5,000 events)', { path: '/api/events', headers: auth(accounts.large.key) }],
      ['GET /api/me', { path: '/api/me', headers: auth(accounts.small.key) }],
      ['GET /v1/gigs?q=design (public)', { path: '/v1/gigs?q=design' }],
      ['POST /v1/invoices, 5 lines (DB)', { method: 'POST', path: '/v1/invoices', headers: { ...auth(accounts.writer.key), ...json }, body: invoiceBody(accounts.writer.clientId) }],
      ['POST /v1/invoices, 5 lines, Idempotency-Key (DB)', { method: 'POST', path: '/v1/invoices', headers: { ...auth(accounts.writer.key), ...json }, body: invoiceBody(accounts.writer.clientId), freshRequest: fresh }],
      ['GET /v1/invoices (DB_WORKSPACES_2)', { path: '/v1/invoices', headers: auth(onSecond.key) }],
      ['POST /v1/invoices, 5 lines (DB_WORKSPACES_2)', { method: 'POST', path: '/v1/invoices', headers: { ...auth(onSecond.key), ...json }, body: invoiceBody(onSecond.clientId) }],
      ['POST /v1/invoices, 5 lines, Idempotency-Key (DB_WORKSPACES_2)', { method: 'POST', path: '/v1/invoices', headers: { ...auth(onSecond.key), ...json }, body: invoiceBody(onSecond.clientId), freshRequest: fresh }],
    ];
    const perRequest = [];
    for (const [name, workload] of workloads) {
      const counted = await countD1Calls(mf, { host: 'app.bench', ...workload });
      perRequest.push({ name, status: counted.status, d1_calls: counted.calls, batches: counted.batches, rows_read: counted.rowsRead, rows_written: counted.rowsWritten, d1_ms: counted.d1Ms, d1_wall_ms: counted.wallMs });
      console.log(`  ${name}: ${counted.calls} D1 round trips, ${counted.rowsRead} rows read, ${counted.rowsWritten} written, ${counted.d1Ms} ms in D1, ${counted.wallMs} ms waiting on it`);
    }

    // Write throughput, and bytes per invoice made through the API.
    const writerInvoices = () => countOf(db, 'SELECT count(*) AS n FROM invoices WHERE workspace_id = ?', accounts.writer.workspaceId);
    await runLoad({ ...postInvoices(served.url, accounts.writer), amount: 200, maxSeconds: 2 }); // warm-up
    const [beforeSize, beforeCount] = [await sizeOf(db), await writerInvoices()];
    const single = [];
    for (let i = 0; i < WRITE_ROUNDS; i++) single.push(await runLoad(postInvoices(served.url, accounts.writer)));
    const [afterSize, afterCount] = [await sizeOf(db), await writerInvoices()];
    const apiBytes = Math.round((afterSize - beforeSize) / (afterCount - beforeCount));

    const pair = async (a, b) => {
      const runs = { a: [], b: [] };
      for (let i = 0; i < WRITE_ROUNDS; i++) {
        const [ra, rb] = await Promise.all([runLoad(postInvoices(served.url, a)), runLoad(postInvoices(served.url, b))]);
        runs.a.push(ra);
        runs.b.push(rb);
      }
      const [sa, sb] = [summarize(runs.a), summarize(runs.b)];
      return { first: sa, second: sb, combined_rps: sa.rps + sb.rps };
    };
    const writer = { key: accounts.writer.key, clientId: accounts.writer.clientId };
    const throughput = {
      one_load_on_DB: summarize(single),
      two_loads_both_on_DB: await pair(writer, alsoOnDb),
      two_loads_DB_and_DB_WORKSPACES_2: await pair(writer, onSecond),
    };
    console.log(JSON.stringify(throughput));

    const report = {
      date: new Date().toISOString(),
      machine: { nproc: availableParallelism(), node: process.version },
      method: { connections: CONNECTIONS, write_run: WRITE_RUN, write_rounds: WRITE_ROUNDS },
      seeded,
      api_invoices: { made: afterCount - beforeCount, bytes_added: afterSize - beforeSize, bytes_per_invoice: apiBytes },
      per_request: perRequest,
      throughput,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(join(root, 'bench/scaling-results.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify({ seeded: report.seeded, api_invoices: report.api_invoices }, null, 2));
  } finally {
    await mf?.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
