// npm run bench:exports: §22's exports on what would deploy, served as `npm run bench` serves it (harness/serve.mjs,
// seeded by harness/seed.mjs: an account with 100,000 invoices over seven years):
// - the DATEV Buchungsstapel of a calendar year of that account (some 14,000 invoices and their payments and
//   expenses), and of a month, as the CPU of the workerd process per request (which includes D1, run in-process),
//   against a Worker's CPU limit (30 s by default, at most 5 min);
// - the period bundle's queue job for 100 and for 1,000 documents (sent invoices made through the API, each a PDF
//   and an XML in the ZIP): the workerd process's peak resident memory while the job runs (its high-water mark,
//   reset before), which should stay flat as the documents grow tenfold, beside its CPU, time and ZIP size.
// Writes bench/exports-results.json and prints a table.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle, RENDERER_BUILD } from './harness/build.mjs';
import { cpuSeconds, findWorkerdPid } from './harness/cpu.mjs';
import { seed } from './harness/seed.mjs';
import { serve } from './harness/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATEV_RUNS = 5;

const memory = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
};

/** Resets the process's peak resident memory to its current one (Linux: clear_refs 5). */
const resetPeak = (pid) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'exports-bench-'));
  let mf;
  try {
    console.log('Building the bundles (wrangler deploy --dry-run: the API --env production, the renderer)…');
    const bundle = buildBundle(root, join(work, 'dist'));
    const renderer = buildBundle(root, join(work, 'renderer'), RENDERER_BUILD);
    const served = await serve({ root, bundlePath: bundle.path, rendererPath: renderer.path, persistDir: join(work, 'state') });
    mf = served.mf;
    const pid = findWorkerdPid();
    console.log('Seeding 101,000 invoices…');
    const { large, writer } = await seed(mf, root);
    const call = async (account, method, path, body, headers = {}) => {
      const res = await mf.dispatchFetch(`http://app.bench${path}`, {
        method, headers: { authorization: `Bearer ${account.key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body && JSON.stringify(body),
      });
      return res;
    };
    const ok = async (res, what) => {
      if (!res.ok) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
      return res.json();
    };

    // DATEV: the large account's last full calendar year, and its January.
    await ok(await call(large, 'PATCH', '/api/workspace', { accounting: { chart: 'SKR03', consultant_number: 29098, client_number: 55003 } }), 'PATCH /api/workspace');
    const year = new Date().getUTCFullYear() - 1;
    const datev = async (from, to) => {
      const path = `/v1/exports/datev?from=${from}&to=${to}`;
      const first = await call(large, 'GET', path);
      const bytes = (await first.arrayBuffer()).byteLength; // the warm-up, and the file's size
      if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}`);
      const before = cpuSeconds(pid);
      const started = performance.now();
      let lines = 0;
      for (let i = 0; i < DATEV_RUNS; i++) {
        const res = await call(large, 'GET', path);
        lines = new TextDecoder('latin1').decode(await res.arrayBuffer()).split('\r\n').length - 3;
      }
      return {
        period: `${from}..${to}`, bookings: lines, bytes,
        cpu_ms_per_request: Math.round(((cpuSeconds(pid) - before) * 1000) / DATEV_RUNS),
        wall_ms_per_request: Math.round((performance.now() - started) / DATEV_RUNS),
      };
    };
    console.log(`DATEV of ${year} and of January ${year} at 100,000 invoices, ${DATEV_RUNS} requests each after a warm-up…`);
    const datevYear = await datev(`${year}-01-01`, `${year}-12-31`);
    const datevMonth = await datev(`${year}-01-01`, `${year}-01-31`);

    // The bundle: a workspace of its own per size, its documents sent today through the API.
    const today = new Date().toISOString().slice(0, 10);
    const bundleOf = async (documents) => {
      const made = await ok(await call(writer, 'POST', '/api/workspaces', { name: `Bundle ${documents}` }), 'POST /api/workspaces');
      const account = { key: made.api_key.key };
      await ok(await call(account, 'PATCH', '/api/workspace', {
        issuer: { legal_name: 'Bench Studio GmbH', email: 'billing@bench.example', vat_id: 'DE123456789', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' } },
      }), 'PATCH /api/workspace');
      const client = await ok(await call(account, 'POST', '/v1/clients', {
        name: 'Client GmbH', email: 'ap@client.example', currency: 'EUR', vat_id: 'DE999999999', address: { line1: 'Ring 2', city: 'Köln', postal_code: '50667', country: 'DE' },
      }), 'POST /v1/clients');
      process.stdout.write(`  ${documents} documents: sending`);
      let firstId;
      for (let sent = 0; sent < documents; sent += 20) {
        await Promise.all(Array.from({ length: Math.min(20, documents - sent) }, async (_, i) => {
          const draft = await ok(await call(account, 'POST', '/v1/invoices', {
            client_id: client.id, line_items: Array.from({ length: 5 }, (_, l) => ({ description: `Design work, part ${l + 1} of invoice ${sent + i + 1}`, quantity: 1.5, unit_amount: 9_999, tax_rate: l % 2 ? 7 : 19 })),
          }), 'POST /v1/invoices');
          await ok(await call(account, 'POST', `/v1/invoices/${draft.id}/send`, { email: false }), 'POST /v1/invoices/{id}/send');
          firstId ??= draft.id;
        }));
        process.stdout.write('.');
      }
      process.stdout.write(' writing the ZIP…\n');
      await new Promise((resolve) => setTimeout(resolve, 2000)); // let the sends' background work settle
      // One PDF first, so the renderer's first load (its font, pdf-lib) is not counted as the job's.
      if ((await call(account, 'GET', `/v1/invoices/${firstId}/pdf`)).status !== 200) throw new Error('the warm-up PDF failed');
      const before = { cpu: cpuSeconds(pid), ...memory(pid) };
      resetPeak(pid);
      const started = performance.now();
      const job = await ok(await call(account, 'POST', '/v1/exports', { from: today, to: today }, { 'idempotency-key': randomUUID() }), 'POST /v1/exports');
      let state = job;
      while (state.status === 'queued' || state.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 250));
        state = await ok(await call(account, 'GET', `/v1/exports/${job.id}`), 'GET /v1/exports/{id}');
      }
      if (state.status !== 'ready') throw new Error(`the bundle of ${documents} documents ended ${state.status}: ${state.failure_reason}`);
      const after = memory(pid);
      return {
        documents, zip_entries: documents * 2 + 5, zip_bytes: state.size,
        seconds: Math.round(performance.now() - started) / 1000,
        cpu_seconds: Math.round((cpuSeconds(pid) - before.cpu) * 100) / 100,
        rss_before_mb: Math.round(before.rssMb), peak_rss_mb: Math.round(after.peakMb), peak_above_before_mb: Math.round(after.peakMb - before.rssMb),
      };
    };
    // `node bench/exports.mjs datev`: the DATEV rows only.
    const bundles = process.argv[2] === 'datev' ? [] : (console.log('The bundle job at 100 and 1,000 documents:'), [await bundleOf(100), await bundleOf(1000)]);

    const report = { date: new Date().toISOString(), datev: [datevYear, datevMonth], bundles };
    if (bundles.length) writeFileSync(join(root, 'bench/exports-results.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('\n| DATEV at 100,000 invoices | bookings | file | CPU per request | wall |\n|---|---|---|---|---|');
    for (const d of report.datev) console.log(`| ${d.period} | ${d.bookings.toLocaleString('en-US')} | ${(d.bytes / 1e6).toFixed(1)} MB | ${d.cpu_ms_per_request} ms | ${d.wall_ms_per_request} ms |`);
    console.log('\n| bundle job | ZIP | time | CPU | RSS before | peak RSS | peak above before |\n|---|---|---|---|---|---|---|');
    for (const b of bundles) console.log(`| ${b.documents} documents | ${(b.zip_bytes / 1e6).toFixed(1)} MB | ${b.seconds} s | ${b.cpu_seconds} s | ${b.rss_before_mb} MB | ${b.peak_rss_mb} MB | ${b.peak_above_before_mb} MB |`);
  } finally {
    await mf?.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
