// npm run bench: build what would deploy, serve it with Miniflare beside the floors, seed a small
// (1,000 invoices) and a large (100,000 invoices) account, then load each workload in turn and
// report throughput, latency, CPU per request, D1 round trips per request, and ratios to the
// I/O floor, all measured in this one run on this one machine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from './harness/build.mjs';
import { cpuSeconds, findWorkerdPid } from './harness/cpu.mjs';
import { runLoad } from './harness/load.mjs';
import { benchId, benchUsers, seed } from './harness/seed.mjs';
import { serve } from './harness/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 10;
const cursor = (id) => Buffer.from(JSON.stringify({ id })).toString('base64url');
const auth = (user) => ({ authorization: `Bearer ${user.key}` });
const fiveLines = JSON.stringify({
  client_id: benchId('cli', 'A', 1),
  line_items: Array.from({ length: 5 }, (_, i) => ({ description: `Line ${i + 1}`, quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25 })),
});

// One entry per workload. `deep`: a page 2,000 rows below the newest (500 for the small account).
const workloads = [
  { name: 'hello world (harness ceiling)', host: 'hello.bench', path: '/' },
  { name: 'I/O floor (hash, KV, 25 rows)', host: 'floor.bench', path: '/', headers: auth(benchUsers.small), floor: true },
  { name: 'GET /v1/projects', host: 'app.bench', path: '/v1/projects', headers: auth(benchUsers.small), list: true },
  ...['small', 'large'].flatMap((size) => {
    const user = benchUsers[size];
    const depth = size === 'small' ? 500 : 2_000;
    const deepCursor = cursor(benchId('inv', user.tag, user.invoices - depth + 1));
    return [
      { name: `GET /v1/invoices (${size})`, host: 'app.bench', path: '/v1/invoices', headers: auth(user), list: true, size },
      { name: `GET /v1/invoices ${depth} deep (${size})`, host: 'app.bench', path: `/v1/invoices?cursor=${deepCursor}`, headers: auth(user), list: true, size },
      { name: `GET /api/workflow/dashboard (${size})`, host: 'app.bench', path: '/api/workflow/dashboard', headers: auth(user), size, amount: 1_000 },
    ];
  }),
  { name: 'POST /v1/invoices, 5 lines', host: 'app.bench', path: '/v1/invoices', method: 'POST', body: fiveLines, headers: { ...auth(benchUsers.small), 'content-type': 'application/json' }, amount: 1_000 },
  { name: 'GET /v1/gigs?q=design (public)', host: 'app.bench', path: '/v1/gigs?q=design' },
  { name: 'GET /api/rates', host: 'app.bench', path: '/api/rates?symbols=EUR,GBP', headers: auth(benchUsers.small) },
];

async function d1CallsPerRequest(mf, workload) {
  const worker = await mf.getWorker('count');
  const request = () =>
    worker.fetch(`http://${workload.host}${workload.path}`, { method: workload.method ?? 'GET', headers: workload.headers, body: workload.body });
  await (await request()).arrayBuffer(); // warm: the key is cached from here on
  const response = await request();
  await response.arrayBuffer();
  return { calls: Number(response.headers.get('X-Bench-D1-Calls')), status: response.status };
}

async function main() {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'workspace-bench-'));
  console.log('Building the bundle (wrangler deploy --dry-run)…');
  const bundle = buildBundle(root, join(work, 'dist'));
  console.log('Serving it with Miniflare and seeding 101,000 invoices…');
  const { mf, url } = await serve({ root, bundlePath: bundle.path, persistDir: join(work, 'state') });
  const pid = findWorkerdPid();
  try {
    await seed(mf, root);
    const results = [];
    for (const workload of workloads) {
      const counted = workload.host === 'app.bench' ? await d1CallsPerRequest(mf, workload) : null;
      // A short warm-up, then the measured run.
      await runLoad({ url: url + workload.path, host: workload.host, method: workload.method, headers: workload.headers, body: workload.body, connections: CONNECTIONS, amount: 100 });
      const cpuBefore = cpuSeconds(pid);
      const load = await runLoad({
        url: url + workload.path, host: workload.host, method: workload.method, headers: workload.headers, body: workload.body,
        connections: CONNECTIONS, amount: workload.amount ?? 4_000, maxSeconds: 25,
      });
      const cpu = cpuSeconds(pid) - cpuBefore;
      const requests = load.requests.total || 1;
      const seconds = (new Date(load.finish) - new Date(load.start)) / 1000;
      results.push({
        name: workload.name,
        rps: Math.round(requests / seconds),
        p50_ms: load.latency.p50,
        p99_ms: load.latency.p99,
        cpu_ms_per_request: Number(((cpu * 1000) / requests).toFixed(2)),
        d1_calls_per_request: counted?.calls ?? (workload.floor ? 1 : 0),
        non_2xx: load.non2xx,
        errors: load.errors,
        requests,
        floor: Boolean(workload.floor),
        list: Boolean(workload.list),
      });
      console.log(`  ${workload.name}: ${Math.round(requests / seconds)} req/s`);
    }
    const floor = results.find((r) => r.floor).rps;
    for (const r of results) r.vs_io_floor = Number((r.rps / floor).toFixed(2));
    const find = (name) => results.find((r) => r.name === name);
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
      bundle: { bytes: bundle.bytes, gzip_bytes: bundle.gzipBytes, gzip_kib: Number((bundle.gzipBytes / 1024).toFixed(1)) },
      results,
      checks: {
        lists_vs_floor_min: Math.min(...results.filter((r) => r.list).map((r) => r.vs_io_floor)),
        dashboard_large_over_small_p50: Number((find('GET /api/workflow/dashboard (large)').p50_ms / find('GET /api/workflow/dashboard (small)').p50_ms).toFixed(2)),
        dashboard_large_over_small_cpu: Number((find('GET /api/workflow/dashboard (large)').cpu_ms_per_request / find('GET /api/workflow/dashboard (small)').cpu_ms_per_request).toFixed(2)),
        deep_over_first_page_cpu_large: Number((find('GET /v1/invoices 2000 deep (large)').cpu_ms_per_request / find('GET /v1/invoices (large)').cpu_ms_per_request).toFixed(2)),
        deep_over_first_page_p50_large: Number((find('GET /v1/invoices 2000 deep (large)').p50_ms / find('GET /v1/invoices (large)').p50_ms).toFixed(2)),
        max_d1_calls_per_read: Math.max(...results.filter((r) => r.name.startsWith('GET') && r.d1_calls_per_request).map((r) => r.d1_calls_per_request)),
      },
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(report, null, 2)}\n`);
    printTable(report);
  } finally {
    await mf.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

function printTable(report) {
  const rows = report.results.map((r) => [r.name, r.rps, r.p50_ms, r.p99_ms, r.cpu_ms_per_request, r.d1_calls_per_request, r.vs_io_floor, r.non_2xx]);
  const header = ['workload', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'D1 calls', '× floor', 'non-2xx'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}`);
  console.log(`\nbundle: ${report.bundle.gzip_kib} KiB gzipped · checks: ${JSON.stringify(report.checks)} · ${report.seconds} s`);
}

await main();
