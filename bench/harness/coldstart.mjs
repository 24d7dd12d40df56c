// Cold start as a user's first request sees it: a new Miniflare (a new workerd and isolate) with a
// bundle, timed from its construction to the first answer of /health, for three bundles with the
// same bindings: a hello world with no dependencies, a one-route Hono + zod app, and the bundle that
// would deploy. The starts are interleaved (hello, one-route, project, hello, …) so the machine's
// other load falls on all three alike. The figure is what the project adds over hello world,
// against what the one-route app adds: (project − hello) ÷ (one-route − hello). Beside the wall
// time, the same ratio of workerd's CPU time to that first answer: on a machine that other work
// keeps busy, wall time moves by whole units of the ratio from run to run, CPU time much less.
import { copyFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { cpuSeconds, findWorkerdPid } from './cpu.mjs';
import { quantile } from './load.mjs';
import { productionOptions } from './serve.mjs';

const STARTS = 15;
const esbuild = createRequire(import.meta.url)('esbuild');

/** The one-route app, bundled as wrangler bundles ours (minified ES module for workerd). */
async function bundleOneRoute(root, outdir) {
  const outfile = join(outdir, 'one-route.js');
  await esbuild.build({
    entryPoints: [join(root, 'bench/floors/one-route.js')], outfile, bundle: true, minify: true, format: 'esm', target: 'es2022',
    platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'], logLevel: 'silent',
  });
  return outfile;
}

async function timeOneStart(options, scriptPath, renderer) {
  const started = performance.now();
  const mf = new Miniflare({ workers: [{ ...options, name: 'measured', modulesRoot: dirname(scriptPath), modules: [{ type: 'ESModule', path: scriptPath }] }, renderer] });
  try {
    const response = await mf.dispatchFetch('http://localhost/health');
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${scriptPath}: /health answered ${response.status}`);
    const wallMs = performance.now() - started;
    return { wallMs, cpuMs: cpuSeconds(findWorkerdPid()) * 1000 };
  } finally {
    await mf.dispose();
  }
}

export async function measureColdStart(root, bundlePath, onProgress = () => {}) {
  const outdir = dirname(bundlePath);
  const hello = join(outdir, 'hello.js');
  copyFileSync(join(root, 'bench/floors/hello.js'), hello);
  const scripts = { hello, one_route: await bundleOneRoute(root, outdir), project: bundlePath };
  // The project's bindings for all three (its Durable Object aside, which only it could serve), so
  // only the script differs between them. Its RENDERER binding needs a worker of that name in the
  // process: hello world stands in for it, since a cold start of the API does not start the renderer
  // (in production it is another isolate, started by the first PDF).
  const { durableObjects: _omitted, ...options } = productionOptions(root);
  const renderer = { name: options.serviceBindings.RENDERER.name, modules: true, compatibilityDate: options.compatibilityDate, modulesRoot: outdir, modules: [{ type: 'ESModule', path: hello }] };
  const times = { hello: [], one_route: [], project: [] };
  const cpu = { hello: [], one_route: [], project: [] };
  await timeOneStart(options, hello, renderer); // the first workerd start on a machine pays for disk caches
  for (let i = 0; i < STARTS; i++) {
    for (const [name, path] of Object.entries(scripts)) {
      const { wallMs, cpuMs } = await timeOneStart(options, path, renderer);
      times[name].push(wallMs);
      cpu[name].push(cpuMs);
    }
    onProgress(i + 1, STARTS);
  }
  const medians = (samples) => Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, Math.round(quantile(ms, 0.5))]));
  const addedRatio = (m) => Number(((m.project - m.hello) / (m.one_route - m.hello)).toFixed(2));
  const median = medians(times);
  const cpuMedian = medians(cpu);
  return {
    starts: STARTS, median_ms: median, added_ms: { one_route: median.one_route - median.hello, project: median.project - median.hello }, ratio: addedRatio(median),
    cpu_median_ms: cpuMedian, cpu_ratio: addedRatio(cpuMedian), times_ms: times, cpu_ms: cpu,
  };
}

// `node bench/harness/coldstart.mjs <bundle>`: the measurement alone, for a bundle already built.
if (process.argv[1] === new URL(import.meta.url).pathname && process.argv[2]) {
  const root = join(dirname(new URL(import.meta.url).pathname), '../..');
  const result = await measureColdStart(root, process.argv[2], (i, n) => process.stdout.write(`\r  cold start: ${i}/${n}`));
  writeFileSync(join(root, 'bench/results-coldstart.json'), JSON.stringify(result, null, 2));
  console.log(`\n${JSON.stringify(result, null, 2)}`);
}
