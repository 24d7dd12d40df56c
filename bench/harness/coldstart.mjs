// What a bundle costs a Worker's start: the CPU workerd spends on a fresh isolate's first request,
// which compiles and evaluates the bundle and answers /health, for three bundles with the same
// bindings: a hello world with no dependencies, a one-route Hono + zod app, and the bundle that would
// deploy. The figure is what the project adds over hello world against what the one-route app adds,
// (project − hello) ÷ (one-route − hello), taken in each round of three starts and read as the
// median over the rounds, with quartiles.
//
// Why this and not the time to a new Miniflare's first answer (what this harness timed before
// 2026-11-28): that includes starting a workerd process, some 300 ms of wall time against the 10–20 ms
// the bundles differ by, so on this shared machine three runs of one code read 1.3, 5.8 and 0.85; and
// workerd's CPU from /proc/<pid>/stat comes in ticks of 10 ms. Here:
// - Each start is a worker of its own in an already running workerd, so a new isolate, whose entry
//   module is a wrapper that imports the bundle on the first request and hands it that request, as
//   `wrangler check startup` profiles a start. workerd parses a module when it is first imported, not
//   when the process starts, so compiling the bundle is inside the measured request, as are its top
//   level and its first answer (Hono builds its router on the first match).
// - CPU is read from /proc/<pid>/task/*/schedstat, nanoseconds on a CPU summed over workerd's
//   threads, around each request: no ticks, and time the scheduler gives to other processes is not
//   counted, which keeps it close from run to run on a busy machine (wall time is reported beside it).
// - The three starts of a round run one after another (their order rotating), so each round's ratio
//   compares starts that saw the same load; a round's hello world is its floor, which holds the
//   harness's own work (Miniflare's routing of the request, the wrapper, the import machinery).
// Many workers make a workerd slow to configure (about 3 s for 16, 18 s for 60), so the rounds are
// spread over a few processes, each beginning with a start that is not counted (the process's first
// isolate pays for warming its allocator).
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { findWorkerdPid } from './cpu.mjs';
import { quantile } from './load.mjs';
import { productionOptions } from './serve.mjs';

const ROUNDS = 30;
const ROUNDS_PER_PROCESS = 6;
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

/** The entry module of a measured worker: the bundle is imported, so compiled and run, by the first request. */
const wrapper = (bundleFile) => `
export default {
  async fetch(request, env, ctx) {
    const { default: worker } = await import(${JSON.stringify(`./${bundleFile}`)});
    const response = await worker.fetch(new Request('http://localhost/health'), env, ctx);
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

/** One workerd with a fresh worker per bundle and round; each worker's first request is one start. */
async function measureRounds(options, renderer, scripts, firstRound, rounds, samples) {
  const worker = (name, path) => ({
    ...options, name, modulesRoot: dirname(path),
    modules: [{ type: 'ESModule', path: join(dirname(path), `start-${name}.js`), contents: wrapper(path.slice(dirname(path).length + 1)) }, { type: 'ESModule', path }],
  });
  const workers = [worker('warm-up', scripts.project)];
  for (let round = firstRound; round < firstRound + rounds; round++) {
    for (const name of BUNDLES) workers.push(worker(`${name}-${round}`, scripts[name]));
  }
  const mf = new Miniflare({ workers: [...workers, renderer] });
  try {
    await mf.ready;
    const pid = findWorkerdPid();
    const start = async (name) => {
      const fetcher = await mf.getWorker(name);
      const cpuBefore = cpuNs(pid);
      const started = performance.now();
      const response = await fetcher.fetch('http://localhost/');
      const status = await response.text();
      const wallMs = performance.now() - started;
      const cpuMs = (cpuNs(pid) - cpuBefore) / 1e6;
      if (status !== '200') throw new Error(`${name}: /health answered ${status}`);
      return { cpuMs, wallMs };
    };
    await start('warm-up');
    for (let round = firstRound; round < firstRound + rounds; round++) {
      const order = [...BUNDLES.slice(round % 3), ...BUNDLES.slice(0, round % 3)];
      for (const name of order) {
        const { cpuMs, wallMs } = await start(`${name}-${round}`);
        samples.cpu[name][round] = cpuMs;
        samples.wall[name][round] = wallMs;
      }
    }
  } finally {
    await mf.dispose();
  }
}

const round2 = (n) => Number(n.toFixed(2));

export async function measureColdStart(root, bundlePath, onProgress = () => {}) {
  const outdir = dirname(bundlePath);
  const hello = join(outdir, 'hello.js');
  copyFileSync(join(root, 'bench/floors/hello.js'), hello);
  const scripts = { hello, one_route: await bundleOneRoute(root, outdir), project: bundlePath };
  // The project's bindings for all three, so only the script differs between them; not its Durable
  // Object or its queue consumers, which only one worker of a process can have. Its RENDERER binding
  // needs a worker of that name in the process: hello world stands in for it, since a cold start of
  // the API does not start the renderer (in production it is another isolate, started by the first PDF).
  const { durableObjects: _object, queueConsumers: _consumers, ...options } = productionOptions(root);
  const renderer = { name: options.serviceBindings.RENDERER.name, modules: true, compatibilityDate: options.compatibilityDate, modulesRoot: outdir, modules: [{ type: 'ESModule', path: hello }] };
  const samples = { cpu: {}, wall: {} };
  for (const name of BUNDLES) {
    samples.cpu[name] = [];
    samples.wall[name] = [];
  }
  const load = [loadAverage()];
  for (let first = 0; first < ROUNDS; first += ROUNDS_PER_PROCESS) {
    await measureRounds(options, renderer, scripts, first, Math.min(ROUNDS_PER_PROCESS, ROUNDS - first), samples);
    onProgress(Math.min(first + ROUNDS_PER_PROCESS, ROUNDS), ROUNDS);
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
  return { rounds: ROUNDS, processes: Math.ceil(ROUNDS / ROUNDS_PER_PROCESS), load_average: load, ...cpu, wall, cpu_ms: rounded(samples.cpu), wall_ms: rounded(samples.wall) };
}

// `node bench/harness/coldstart.mjs <bundle>`: the measurement alone, for a bundle already built.
if (process.argv[1] === new URL(import.meta.url).pathname && process.argv[2]) {
  const root = join(dirname(new URL(import.meta.url).pathname), '../..');
  const result = await measureColdStart(root, process.argv[2], (i, n) => process.stdout.write(`\r  cold start: round ${i} of ${n}`));
  writeFileSync(join(root, 'bench/results-coldstart.json'), JSON.stringify(result, null, 2));
  const { cpu_ms: _cpu, wall_ms: _wall, ...summary } = result;
  console.log(`\n${JSON.stringify(summary, null, 2)}`);
}
