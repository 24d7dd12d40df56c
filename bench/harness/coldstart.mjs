// What a bundle costs a Worker's start: the CPU workerd spends to create a new isolate with the bundle,
// compile and evaluate it and answer its first /health, for three bundles with the same bindings: a
// hello world with no dependencies, a one-route Hono + zod app, and the bundle that would deploy. The
// figure is what the project adds over hello world against what the one-route app adds,
// (project − hello) ÷ (one-route − hello), taken in each round of three starts and read as the median
// over the rounds, with quartiles.
//
// Why this and not the time to a new Miniflare's first answer (what this harness timed before
// 2026-11-28): that includes starting a workerd process, some 300 ms of wall time against the 10–60 ms
// the bundles differ by, so on this shared machine three runs of one code read 1.3, 5.8 and 0.85; and
// workerd's CPU from /proc/<pid>/stat comes in ticks of 10 ms. Here:
// - Every start is a worker loaded at run time, in a workerd already running, through a Worker Loader
//   binding (`env.LOADER.get(id, …)`, a new id each time, so a new isolate): creating the isolate,
//   compiling the bundle, running its top level and its first request (Hono builds its router on the
//   first match) all happen inside one request to a starter worker. A worker configured in advance
//   would not do: workerd compiles every module of a configured worker when the process starts (a
//   1 MB module of functions never called adds about 35 ms of CPU there and 1 ms to its import).
// - CPU is read from /proc/<pid>/task/*/schedstat, nanoseconds on a CPU summed over workerd's
//   threads, around each start: no ticks, and time the scheduler gives to other processes is not
//   counted, which keeps it close from run to run on a busy machine (wall time is reported beside it).
// - The three starts of a round run one after another (their order rotating), so each round's ratio
//   compares starts that saw the same load; a round's hello world is its floor, which holds the
//   isolate's own creation and the harness's work (Miniflare's routing, the starter, the loader).
// The loaded workers get the production bindings that can be handed to a worker at run time: every
// var and secret, and RENDERER (a hello world of that name, since a cold start of the API does not
// start the renderer). D1, KV, the queues and the rate limiters cannot be; /health and the top level
// of the bundle use none of them.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { findWorkerdPid } from './cpu.mjs';
import { quantile } from './load.mjs';
import { productionOptions } from './serve.mjs';

const ROUNDS = 30;
const BUNDLES = ['hello', 'one_route', 'project'];
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

/**
 * The starter worker: `/?bundle=project&id=7` starts the bundle as a new worker (its source a Text
 * module of the starter's, so never compiled as the starter's own) and answers the status of its
 * first /health.
 */
const starter = (options) => `
${BUNDLES.map((name) => `import ${name} from './source-${name}.txt';`).join('\n')}
const SOURCES = { ${BUNDLES.join(', ')} };

export default {
  async fetch(request, env) {
    const { searchParams } = new URL(request.url);
    const { LOADER, ...bindings } = env;
    const handed = Object.fromEntries(Object.entries(bindings).filter(([name, value]) => typeof value === 'string' || name === 'RENDERER'));
    const worker = LOADER.get(searchParams.get('id'), () => ({
      compatibilityDate: ${JSON.stringify(options.compatibilityDate)},
      compatibilityFlags: ${JSON.stringify(options.compatibilityFlags ?? [])},
      mainModule: 'index.js',
      modules: { 'index.js': SOURCES[searchParams.get('bundle')] },
      env: handed,
    }));
    const response = await worker.getEntrypoint().fetch('http://localhost/health');
    await response.arrayBuffer();
    return new Response(String(response.status));
  },
};
`;

/** Nanoseconds workerd's threads have spent on a CPU (schedstat's first field, per thread). */
function cpuNs(pid) {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return total;
}

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** Starts one bundle as a new worker; its CPU and wall milliseconds. */
async function timeOneStart(mf, pid, bundle, id) {
  const cpuBefore = cpuNs(pid);
  const started = performance.now();
  const response = await mf.dispatchFetch(`http://localhost/?bundle=${bundle}&id=${id}`);
  const status = await response.text();
  const wallMs = performance.now() - started;
  const cpuMs = (cpuNs(pid) - cpuBefore) / 1e6;
  if (status !== '200') throw new Error(`${bundle}: /health answered ${status.slice(0, 500)}`);
  return { cpuMs, wallMs };
}

const round2 = (n) => Number(n.toFixed(2));

export async function measureColdStart(root, bundlePath, onProgress = () => {}) {
  const outdir = dirname(bundlePath);
  const hello = join(outdir, 'hello.js');
  copyFileSync(join(root, 'bench/floors/hello.js'), hello);
  const scripts = { hello, one_route: await bundleOneRoute(root, outdir), project: bundlePath };
  const { durableObjects: _object, queueConsumers: _consumers, ...options } = productionOptions(root);
  const renderer = { name: options.serviceBindings.RENDERER.name, modules: true, compatibilityDate: options.compatibilityDate, modulesRoot: outdir, modules: [{ type: 'ESModule', path: hello }] };
  const sources = BUNDLES.map((name) => ({ type: 'Text', path: join(outdir, `source-${name}.txt`), contents: readFileSync(scripts[name], 'utf8') }));
  const mf = new Miniflare({
    workers: [
      { ...options, name: 'starter', modulesRoot: outdir, workerLoaders: { LOADER: {} }, modules: [{ type: 'ESModule', path: join(outdir, 'starter.js'), contents: starter(options) }, ...sources] },
      renderer,
    ],
  });
  const samples = { cpu: {}, wall: {} };
  for (const name of BUNDLES) {
    samples.cpu[name] = [];
    samples.wall[name] = [];
  }
  const load = [loadAverage()];
  try {
    await mf.ready;
    const pid = findWorkerdPid();
    // Not counted: the first worker a process loads may pay for what every later one finds ready.
    await timeOneStart(mf, pid, 'project', 'warm-up');
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of [...BUNDLES.slice(round % 3), ...BUNDLES.slice(0, round % 3)]) {
        const { cpuMs, wallMs } = await timeOneStart(mf, pid, name, `${name}-${round}`);
        samples.cpu[name][round] = cpuMs;
        samples.wall[name][round] = wallMs;
      }
      onProgress(round + 1, ROUNDS);
    }
  } finally {
    await mf.dispose();
  }
  load.push(loadAverage());

  const figures = (of) => {
    const median = Object.fromEntries(BUNDLES.map((name) => [name, round2(quantile(of[name], 0.5))]));
    const ratios = of.hello.map((floor, i) => (of.project[i] - floor) / (of.one_route[i] - floor));
    return {
      median_ms: median,
      added_ms: { one_route: round2(median.one_route - median.hello), project: round2(median.project - median.hello) },
      ratio: round2(quantile(ratios, 0.5)),
      ratio_quartiles: [round2(quantile(ratios, 0.25)), round2(quantile(ratios, 0.75))],
      ratio_of_medians: round2((median.project - median.hello) / (median.one_route - median.hello)),
    };
  };
  const cpu = figures(samples.cpu);
  const wall = figures(samples.wall);
  const rounded = (of) => Object.fromEntries(BUNDLES.map((name) => [name, of[name].map(round2)]));
  return { rounds: ROUNDS, load_average: load, ...cpu, wall, cpu_ms: rounded(samples.cpu), wall_ms: rounded(samples.wall) };
}

// `node bench/harness/coldstart.mjs <bundle>`: the measurement alone, for a bundle already built.
if (process.argv[1] === new URL(import.meta.url).pathname && process.argv[2]) {
  const root = join(dirname(new URL(import.meta.url).pathname), '../..');
  const result = await measureColdStart(root, process.argv[2], (i, n) => process.stdout.write(`\r  cold start: round ${i} of ${n}`));
  writeFileSync(join(root, 'bench/results-coldstart.json'), JSON.stringify(result, null, 2));
  const { cpu_ms: _cpu, wall_ms: _wall, ...summary } = result;
  console.log(`\n${JSON.stringify(summary, null, 2)}`);
}
