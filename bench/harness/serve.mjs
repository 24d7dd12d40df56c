// Serves the built bundle with the Miniflare API (no wrangler dev proxy), beside the two floor
// workers and a D1-counting wrapper, all in one workerd process sharing one D1 database and KV.
// Requests pick a worker by Host: app.bench (the API), hello.bench, floor.bench.
import { copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';

const COMPATIBILITY_DATE = '2026-04-20';

export async function serve({ root, bundlePath, persistDir, ratesUrl = 'http://127.0.0.1:9/unused' }) {
  const distDir = dirname(bundlePath);
  copyFileSync(join(root, 'bench/floors/count-d1.js'), join(distDir, 'count-d1.js'));
  const shared = {
    compatibilityDate: COMPATIBILITY_DATE,
    d1Databases: { DB: 'workspace' },
    kvNamespaces: { RATES_KV: 'rates', INVITES_KV: 'invites' },
  };
  const appBindings = {
    ...shared,
    bindings: {
      APP_VERSION: 'bench',
      ADMIN_TOKEN: 'bench-admin-token',
      RATES_URL: ratesUrl,
      RATES_TIMEOUT_MS: '100',
      TRANSFER_FEE_BPS: '50',
      TRANSFER_FIXED_FEE_USD_CENTS: '100',
      AI_MODEL: 'unused',
    },
    queueProducers: { TRANSFERS_QUEUE: 'workspace-transfers', SUGGESTIONS_QUEUE: 'workspace-suggestions' },
    // Production allows 120 a minute per key; the benchmark drives one key far harder on purpose.
    ratelimits: { RATE_LIMITER: { simple: { limit: 1_000_000_000, period: 60 } }, AI_RATE_LIMITER: { simple: { limit: 1_000_000_000, period: 60 } } },
  };
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    d1Persist: join(persistDir, 'd1'),
    kvPersist: join(persistDir, 'kv'),
    workers: [
      { name: 'app', modulesRoot: distDir, modules: [{ type: 'ESModule', path: bundlePath }], routes: ['app.bench/*'], ...appBindings },
      { name: 'count', modulesRoot: distDir, modules: [{ type: 'ESModule', path: join(distDir, 'count-d1.js') }, { type: 'ESModule', path: bundlePath }], ...appBindings },
      { name: 'hello', modules: true, script: readFileSync(join(root, 'bench/floors/hello.js'), 'utf8'), compatibilityDate: COMPATIBILITY_DATE, routes: ['hello.bench/*'] },
      { name: 'floor', modules: true, script: readFileSync(join(root, 'bench/floors/io-floor.js'), 'utf8'), routes: ['floor.bench/*'], ...shared },
    ],
  });
  const url = await mf.ready;
  return { mf, url: url.toString().replace(/\/$/, '') };
}
