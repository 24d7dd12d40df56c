// Builds exactly what `npm run deploy` would upload for a worker, without uploading it, and measures
// the bundle: bytes as built (minified) and gzipped. The API by default (wrangler deploy --env
// production); the renderer with RENDERER_BUILD.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const wrangler = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');

/** The renderer worker, as `npm run deploy` deploys it. */
export const RENDERER_BUILD = ['--config', 'src/renderer/wrangler.toml'];

export function buildBundle(root, outdir, target = ['--env', 'production']) {
  try {
    execFileSync(process.execPath, [wrangler, 'deploy', '--dry-run', ...target, '--outdir', outdir], {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(outdir, 'logs') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    process.stderr.write(`${err.stdout}${err.stderr}`);
    throw new Error('wrangler deploy --dry-run failed');
  }
  const code = readFileSync(join(outdir, 'index.js'));
  return { path: join(outdir, 'index.js'), bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}
