// Serves the built bundle with the Miniflare API (not `wrangler dev`, whose debugging proxy adds
// milliseconds to every D1 call), beside the floor workers and a D1-counting copy of the app, all in
// one workerd process over one D1 database. Requests pick a worker by Host: app.bench (the API),
// hello.bench, floor.bench and write-floor.bench. The renderer's bundle serves the API's RENDERER
// binding (every PDF), in the same process, so its CPU counts in the PDF rows.
//
// The app's bindings are production's, read from wrangler.toml by wrangler itself (`--env production`:
// vars, D1, KV, queue producers and consumers, rate limiters), with these changes:
// - the per-key rate limiters allow a billion requests a minute: the load drives one key far past 120;
// - RATES_URL points at a closed local port, so nothing leaves the machine (the seeded snapshot is
//   fresh); `vars` overrides this and any other var (the soak points it at a misbehaving upstream);
// - no AI binding (it has no local simulation) and no static assets: in production the asset router
//   answers before the worker runs, and no measured route reads ASSETS;
// - ADMIN_TOKEN, WEBHOOK_SECRET_KEY and INVOICE_LINK_SECRET, secrets in production, are throwaway values;
// - WEBHOOK_ALLOWED_HOSTS lets webhooks go to the fan-out workload's receivers on 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';

const UNLIMITED = 1_000_000_000;

export function productionOptions(root, vars = {}) {
  const config = unstable_readConfig({ config: join(root, 'wrangler.toml'), env: 'production' });
  const { workerOptions } = unstable_getMiniflareWorkerOptions({ ...config, ai: undefined, assets: undefined }, 'production');
  const ratelimits = Object.fromEntries(
    Object.entries(workerOptions.ratelimits).map(([name, r]) => [name, { ...r, simple: { ...r.simple, limit: UNLIMITED } }]),
  );
  const bindings = {
    ...workerOptions.bindings,
    RATES_URL: 'http://127.0.0.1:9/closed',
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    INVOICE_LINK_SECRET: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    ...vars,
  };
  return { ...workerOptions, bindings, ratelimits };
}

export async function serve({ root, bundlePath, rendererPath, persistDir, vars = {} }) {
  const distDir = dirname(bundlePath);
  copyFileSync(join(root, 'bench/harness/d1-count.worker.js'), join(distDir, 'd1-count.worker.js'));
  const app = productionOptions(root, vars);
  const { compatibilityDate } = app;
  const floor = (name) => ({ name, modules: true, compatibilityDate, script: readFileSync(join(root, `bench/floors/${name}.js`), 'utf8') });
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    d1Persist: join(persistDir, 'd1'),
    kvPersist: join(persistDir, 'kv'),
    workers: [
      { ...app, name: 'app', routes: ['app.bench/*'], modulesRoot: distDir, modules: [{ type: 'ESModule', path: bundlePath }] },
      {
        // The same bundle behind a wrapper that counts D1 round trips; it consumes no queues (the app does).
        ...app,
        name: 'count',
        queueConsumers: undefined,
        modulesRoot: distDir,
        modules: [{ type: 'ESModule', path: join(distDir, 'd1-count.worker.js') }, { type: 'ESModule', path: bundlePath }],
      },
      {
        name: app.serviceBindings.RENDERER.name,
        modules: true,
        compatibilityDate,
        modulesRoot: dirname(rendererPath),
        modules: [{ type: 'ESModule', path: rendererPath }],
      },
      { ...floor('hello'), routes: ['hello.bench/*'] },
      { ...floor('io-floor'), routes: ['floor.bench/*'], d1Databases: app.d1Databases, kvNamespaces: { KEYS: 'bench-floor-keys' } },
      { ...floor('write-floor'), routes: ['write-floor.bench/*'], d1Databases: app.d1Databases, kvNamespaces: { KEYS: 'bench-floor-keys' } },
    ],
  });
  const url = await mf.ready;
  return { mf, url: url.toString().replace(/\/$/, '') };
}
