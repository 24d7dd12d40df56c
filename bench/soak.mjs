// npm run soak: 50 concurrent clients create and pay invoices against the deployable bundle for a
// bounded time (SOAK_SECONDS, default 60), while the rates upstream is down, slow and answering
// garbage in turn and the cron keeps trying to refresh. Then it checks: no 5xx, every acknowledged
// write is in the database, invoice numbers are unique, and the last good rates were served
// throughout. (Transfers under duplicate delivery and a consumer crashing mid-batch are covered
// by test/transfers/lifecycle.test.ts, which drives the consumer directly.)
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle, RENDERER_BUILD } from './harness/build.mjs';
import { invoiceIdAtDepth, seed } from './harness/seed.mjs';
import { serve } from './harness/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENTS = 50;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);

// The rates upstream, misbehaving in turn: down (503), slow (never answers in time), garbage.
let upstreamMode = 'down';
const upstream = createServer((req, res) => {
  if (upstreamMode === 'down') return res.writeHead(503).end('unavailable');
  if (upstreamMode === 'slow') return setTimeout(() => res.writeHead(200).end('{}'), 5_000);
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"success","base_code":"USD","rates":{"EUR":"lots"}}');
}).listen(0, '127.0.0.1');
await new Promise((r) => upstream.once('listening', r));

const work = mkdtempSync(join(tmpdir(), 'workspace-soak-'));
const bundle = buildBundle(root, join(work, 'dist'));
const renderer = buildBundle(root, join(work, 'renderer'), RENDERER_BUILD);
const { mf, url } = await serve({ root, bundlePath: bundle.path, rendererPath: renderer.path, persistDir: join(work, 'state'), vars: { RATES_URL: `http://127.0.0.1:${upstream.address().port}/latest`, RATES_TIMEOUT_MS: '100' } });
const { small: user } = await seed(mf, root);
const newestSeeded = await invoiceIdAtDepth(mf, user.workspaceId, 1);
const headers = { host: 'app.bench', authorization: `Bearer ${user.key}`, 'content-type': 'application/json' };
const app = await mf.getWorker('app');

const stats = { requests: 0, statuses: {}, created: [], paid: [], ratesServed: 0, ratesWrong: 0 };
const count = (status) => {
  stats.requests++;
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
};
const api = async (method, path, body) => {
  const res = await fetch(url + path, { method, headers, body: body && JSON.stringify(body) });
  count(res.status);
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
};

const deadline = Date.now() + SECONDS * 1000;
async function clientLoop() {
  while (Date.now() < deadline) {
    const created = await api('POST', '/v1/invoices', {
      client_id: user.clientId,
      line_items: [{ description: 'Soak', quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25 }],
    });
    if (created.status !== 201) continue;
    stats.created.push(created.body.id);
    if ((await api('POST', `/v1/invoices/${created.body.id}/send`)).status !== 200) continue;
    const paid = await api('POST', `/v1/invoices/${created.body.id}/payments`, { amount: created.body.total });
    if (paid.status === 200) stats.paid.push(created.body.id);
    const rates = await api('GET', '/api/rates?symbols=EUR');
    if (rates.status === 200 && rates.body.rates.EUR === 0.9213) stats.ratesServed++;
    else stats.ratesWrong++;
  }
}
async function cronLoop() {
  const modes = ['down', 'slow', 'garbage'];
  for (let i = 0; Date.now() < deadline; i++) {
    upstreamMode = modes[i % modes.length];
    await app.scheduled({ cron: '*/15 * * * *' });
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

const started = Date.now();
await Promise.all([...Array.from({ length: CLIENTS }, clientLoop), cronLoop()]);
const elapsed = (Date.now() - started) / 1000;

const db = await mf.getD1Database('DB', 'app');
const ids = new Set(stats.created);
const stored = (await db.prepare("SELECT id, number, status FROM invoices WHERE workspace_id = ? AND id > ?").bind(user.workspaceId, newestSeeded).all()).results;
const storedIds = new Set(stored.map((r) => r.id));
const missing = [...ids].filter((id) => !storedIds.has(id));
const numbers = stored.map((r) => r.number);
const duplicates = numbers.length - new Set(numbers).size;
const paidStored = new Set(stored.filter((r) => r.status === 'paid').map((r) => r.id));
const paidMissing = stats.paid.filter((id) => !paidStored.has(id));
const fiveHundreds = Object.entries(stats.statuses).filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0);

console.log(JSON.stringify({ seconds: Math.round(elapsed), clients: CLIENTS, requests: stats.requests, rps: Math.round(stats.requests / elapsed), statuses: stats.statuses,
  invoices_created: ids.size, invoices_paid: stats.paid.length, missing_writes: missing.length, unpaid_after_acknowledged_payment: paidMissing.length,
  duplicate_numbers: duplicates, rates_served_last_good: stats.ratesServed, rates_wrong: stats.ratesWrong, five_hundreds: fiveHundreds }, null, 2));

await mf.dispose();
upstream.close();
rmSync(work, { recursive: true, force: true });
const ok = fiveHundreds === 0 && missing.length === 0 && paidMissing.length === 0 && duplicates === 0 && stats.ratesWrong === 0;
console.log(ok ? 'soak: passed' : 'soak: FAILED');
process.exit(ok ? 0 : 1);
