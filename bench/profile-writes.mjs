// A V8 CPU profile of the API's isolate under creates (`node bench/profile-writes.mjs [keyed] [count]`):
// the bundle built as it deploys but not minified (functions keep their names, and esbuild's `// path`
// comments tell which module each line came from), served by Miniflare with workerd's inspector open,
// seeded as the bench seeds; after a warm-up, `count` (default 2,000) 5-line creates, 10 at a time,
// with the Profiler of the app's isolate running. Prints self time by module and by function, time
// under each function, and writes the profile to the temp folder, to open in Chrome's DevTools.
// workerd runs the local D1 on the same thread: its work shows as the app's D1 client (toJson, _send).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import WebSocket from 'ws';
import { buildBundle } from './harness/build.mjs';
import { seed } from './harness/seed.mjs';
import { productionOptions } from './harness/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keyed = process.argv.includes('keyed');
const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 2000);
const INSPECTOR_PORT = 9231;

function inspector(url) {
  const ws = new WebSocket(url);
  let next = 0;
  const waiting = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const opened = new Promise((resolve) => ws.once('open', resolve));
  return {
    async send(method, params = {}) {
      await opened;
      const id = ++next;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => ws.close(),
  };
}

async function creates(url, account, n) {
  const body = JSON.stringify({
    client_id: account.clientId,
    line_items: Array.from({ length: 5 }, (_, i) => ({ description: `Design work, part ${i + 1}`, quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25 })),
  });
  let left = n;
  const statuses = {};
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (left-- > 0) {
      const headers = { host: 'app.bench', authorization: `Bearer ${account.key}`, 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': randomUUID() } : {}) };
      const res = await fetch(`${url}/v1/invoices`, { method: 'POST', headers, body });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await res.arrayBuffer();
    }
  }));
  return statuses;
}

const work = mkdtempSync(join(tmpdir(), 'workspace-profile-'));
const bundle = buildBundle(root, join(work, 'dist'), ['--env', 'production', '--minify=false']);
const moduleAt = modulesOf(readFileSync(bundle.path, 'utf8'));
const app = productionOptions(root);
const mf = new Miniflare({
  host: '127.0.0.1',
  port: 0,
  inspectorPort: INSPECTOR_PORT,
  d1Persist: join(work, 'state/d1'),
  kvPersist: join(work, 'state/kv'),
  workers: [
    { ...app, name: 'app', routes: ['app.bench/*'], serviceBindings: { ...app.serviceBindings, RENDERER: async () => new Response(null, { status: 503 }) }, modulesRoot: dirname(bundle.path), modules: [{ type: 'ESModule', path: bundle.path }] },
    // seed() gives the I/O floor's KV the keys too: a stand-in worker holds that namespace.
    { name: 'io-floor', modules: true, compatibilityDate: app.compatibilityDate, script: 'export default { fetch: () => new Response() }', kvNamespaces: { KEYS: 'bench-floor-keys' } },
  ],
});
try {
  const url = (await mf.ready).toString().replace(/\/$/, '');
  const { writer } = await seed(mf, root);
  console.log('warm-up', await creates(url, writer, 300));
  const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json();
  const target = targets.find((t) => t.title?.includes('app') || t.url?.includes('app'));
  if (!target) throw new Error(`no inspector target for the app: ${JSON.stringify(targets)}`);
  const session = inspector(target.webSocketDebuggerUrl);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 100 });
  await session.send('Profiler.start');
  const started = performance.now();
  console.log('profiled', await creates(url, writer, count), `${Math.round(performance.now() - started)} ms`);
  const { result } = await session.send('Profiler.stop');
  session.close();
  const out = join(tmpdir(), `writes-${keyed ? 'keyed' : 'plain'}.cpuprofile`);
  writeFileSync(out, JSON.stringify(result.profile));
  summarise(result.profile);
  console.log(`profile: ${out}`);
} finally {
  await mf.dispose();
  rmSync(work, { recursive: true, force: true });
}

/** The module a line of the bundle (0-based) came from, by the esbuild comment that starts its part. */
function modulesOf(code) {
  const starts = [];
  code.split('\n').forEach((line, i) => {
    const marker = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
    if (marker) starts.push([i, marker[1].replace(/^node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*/, '$1')]);
  });
  return (line) => {
    let found = '(bundle)';
    for (const [start, name] of starts) {
      if (start > line) break;
      found = name;
    }
    return found;
  };
}

function summarise({ nodes, samples, timeDeltas }) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const self = new Map();
  const total = timeDeltas.reduce((s, d) => s + d, 0);
  samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + timeDeltas[i]));
  const byName = new Map();
  const byModule = new Map();
  for (const [id, us] of self) {
    const { functionName, lineNumber, url } = byId.get(id).callFrame;
    const where = url === 'index.js' ? moduleAt(lineNumber) : url || '(native)';
    byModule.set(where, (byModule.get(where) ?? 0) + us);
    const name = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
    byName.set(name, (byName.get(name) ?? 0) + us);
  }
  const idle = [...self].filter(([id]) => ['(idle)', '(program)', '(garbage collector)'].includes(byId.get(id).callFrame.functionName));
  console.log(`total ${Math.round(total / 1000)} ms; ${idle.map(([id, us]) => `${byId.get(id).callFrame.functionName} ${Math.round(us / 1000)} ms`).join(', ')}`);
  console.log('by module:');
  for (const [name, us] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  // Time under each function (its callees included), counted once per sample however deep it recurses.
  const parent = new Map();
  for (const n of nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const under = new Map();
  for (const [id, us] of self) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { functionName, lineNumber, url } = byId.get(at).callFrame;
      if (!functionName || url !== 'index.js') continue;
      const name = `${functionName}  ${moduleAt(lineNumber)}:${lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      under.set(name, (under.get(name) ?? 0) + us);
    }
  }
  console.log('under function (callees included):');
  for (const [name, us] of [...under].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  console.log('by function:');
  for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
}
