// The renderer worker (src/renderer) bundled for the test pool, which runs it beside the API as an
// auxiliary worker and takes only JavaScript for one: a minified ES module for workerd, built the way
// wrangler builds it for `wrangler dev` and deploy. vitest.config.ts builds it on every run, so the
// tests never meet a renderer older than its source.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const esbuild = createRequire(import.meta.url)('esbuild');

/** Bundles src/renderer/index.ts into `outfile` and returns its path. */
export async function buildRenderer(root, outfile = join(root, 'dist/renderer/index.js')) {
  await esbuild.build({
    entryPoints: [join(root, 'src/renderer/index.ts')], outfile, bundle: true, minify: true, format: 'esm', target: 'es2022',
    platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'],
    external: ['cloudflare:*'], logLevel: 'error',
  });
  return outfile;
}
