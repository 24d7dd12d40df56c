// scratch: CPU per report request, sequential
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle, RENDERER_BUILD } from './harness/build.mjs';
import { cpuSeconds, findWorkerdPid } from './harness/cpu.mjs';
import { seed } from './harness/seed.mjs';
import { serve } from './harness/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = '/tmp/reports-profile';
mkdirSync(work, { recursive: true });
const bundle = buildBundle(root, join(work, 'dist'));
const renderer = buildBundle(root, join(work, 'renderer'), RENDERER_BUILD);
const fresh = !existsSync(join(work, 'accounts.json'));
const served = await serve({ root, bundlePath: bundle.path, rendererPath: renderer.path, persistDir: join(work, 'state') });
const pid = findWorkerdPid();
const accounts = fresh ? await seed(served.mf, root) : JSON.parse(readFileSync(join(work, 'accounts.json'), 'utf8'));
if (fresh) writeFileSync(join(work, 'accounts.json'), JSON.stringify(accounts));
const day = (o) => new Date(Date.now() + o * 86_400_000).toISOString().slice(0, 10);
const a = accounts.large;
const paths = process.argv.slice(2).length ? process.argv.slice(2) : [
  '/api/me',
  `/v1/reports/profit-and-loss?from=${day(-30)}&to=${day(-1)}`,
  `/v1/reports/profit-and-loss?from=${day(-365)}&to=${day(0)}`,
  `/v1/reports/aged-receivables`,
  `/v1/reports/vat?from=${day(-365)}&to=${day(0)}`,
];
for (const path of paths) {
  const get = async () => { const r = await fetch(served.url + path, { headers: { host: 'app.bench', authorization: `Bearer ${a.key}` } }); const t = await r.text(); if (r.status !== 200) throw new Error(`${r.status} ${t}`); return t; };
  for (let i = 0; i < 3; i++) await get();
  const n = 30;
  const c0 = cpuSeconds(pid); const t0 = Date.now();
  for (let i = 0; i < n; i++) await get();
  console.log(`${((cpuSeconds(pid) - c0) * 1000 / n).toFixed(2)} ms CPU, ${((Date.now() - t0) / n).toFixed(1)} ms wall  ${path.slice(0, 90)}`);
}
await served.mf.dispose();
