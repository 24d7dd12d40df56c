// Two versions of the API side by side (`node bench/ab.mjs <treeA> <treeB> [rounds] [keyed]`): each
// tree's deployable bundle, built as `npm run bench` builds it, served with the write floor in one
// workerd over one seeded database, then rounds of 5-line creates (500 each, 10 connections) against
// A, B and the floor in turn, the order rotating. Prints workerd's CPU per request for each and the
// medians of the per-round ratios: B/A says what a change is worth, with the machine's drift between
// rounds divided out. Runs of the same tree against itself read 0.98–1.02, so take a change under 3 %
// for no change. `keyed` sends a fresh Idempotency-Key with each create.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import { buildBundle } from './harness/build.mjs';
import { cpuSeconds, findWorkerdPid } from './harness/cpu.mjs';
import { runLoad } from './harness/load.mjs';
import { seed } from './harness/seed.mjs';
import { productionOptions } from './harness/serve.mjs';

const [treeA, treeB] = process.argv.slice(2, 4).map((p) => resolve(p));
if (!treeA || !treeB) throw new Error('usage: node bench/ab.mjs <treeA> <treeB> [rounds] [keyed]');
const rounds = Number(process.argv[4] ?? 8);
const keyed = process.argv.includes('keyed');
const work = mkdtempSync(join(tmpdir(), 'workspace-ab-'));
const bundles = { A: buildBundle(treeA, join(work, 'a')), B: buildBundle(treeB, join(work, 'b')) };
console.log(`bundles: A ${bundles.A.bytes} bytes, B ${bundles.B.bytes} bytes`);
const app = productionOptions(treeA);
// No PDF is made: the renderer is not served.
const serviceBindings = { ...app.serviceBindings, RENDERER: async () => new Response(null, { status: 503 }) };
const version = (name, host, bundle, consumes) => ({
  ...app, name, routes: [`${host}/*`], serviceBindings, queueConsumers: consumes ? app.queueConsumers : undefined,
  modulesRoot: dirname(bundle.path), modules: [{ type: 'ESModule', path: bundle.path }],
});
const floor = { modules: true, compatibilityDate: app.compatibilityDate, kvNamespaces: { KEYS: 'bench-floor-keys' } };
const mf = new Miniflare({
  host: '127.0.0.1',
  port: 0,
  d1Persist: join(work, 'd1'),
  kvPersist: join(work, 'kv'),
  workers: [
    version('app', 'a.bench', bundles.A, true),
    version('app-b', 'b.bench', bundles.B, false),
    { ...floor, name: 'write-floor', routes: ['write-floor.bench/*'], d1Databases: app.d1Databases, script: readFileSync(join(treeA, 'bench/floors/write-floor.js'), 'utf8') },
    // seed() gives the I/O floor's KV the keys too: a stand-in worker holds that namespace.
    { ...floor, name: 'io-floor', script: 'export default { fetch: () => new Response() }' },
  ],
});
try {
  const url = (await mf.ready).toString().replace(/\/$/, '');
  const { writer } = await seed(mf, treeA);
  const pid = findWorkerdPid();
  const body = JSON.stringify({
    client_id: writer.clientId,
    line_items: Array.from({ length: 5 }, (_, i) => ({ description: `Design work, part ${i + 1}`, quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25 })),
  });
  const targets = { A: ['a.bench', '/v1/invoices'], B: ['b.bench', '/v1/invoices'], F: ['write-floor.bench', '/'] };
  const cpuPerRequest = async (name, amount) => {
    const [host, path] = targets[name];
    const freshRequest = keyed && name !== 'F' ? () => ({ headers: { 'idempotency-key': randomUUID() } }) : undefined;
    const before = cpuSeconds(pid);
    const { statuses } = await runLoad({
      url: url + path, host, method: 'POST', headers: { authorization: `Bearer ${writer.key}`, 'content-type': 'application/json' }, body, freshRequest, connections: 10, amount, maxSeconds: 30,
    });
    const answered = Object.values(statuses).reduce((sum, n) => sum + n, 0);
    if (statuses[201] !== answered) throw new Error(`${name} answered ${JSON.stringify(statuses)}`);
    return ((cpuSeconds(pid) - before) * 1000) / answered;
  };
  for (const name of ['A', 'B', 'F']) await cpuPerRequest(name, 300); // warm-up: keys cached, code compiled
  const cpu = { A: [], B: [], F: [] };
  const orders = [['A', 'B', 'F'], ['B', 'F', 'A'], ['F', 'A', 'B']];
  for (let round = 0; round < rounds; round++) for (const name of orders[round % 3]) cpu[name].push(await cpuPerRequest(name, 500));
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratio = (x, y) => median(cpu[x].map((value, i) => value / cpu[y][i])).toFixed(3);
  console.log(`CPU ms per request (medians): A ${median(cpu.A).toFixed(3)}, B ${median(cpu.B).toFixed(3)}, write floor ${median(cpu.F).toFixed(3)}`);
  console.log(`A ÷ write floor ${ratio('A', 'F')}, B ÷ write floor ${ratio('B', 'F')}, B ÷ A ${ratio('B', 'A')}`);
} finally {
  await mf.dispose();
  rmSync(work, { recursive: true, force: true });
}
