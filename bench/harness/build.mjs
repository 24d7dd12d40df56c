// Builds exactly what `npm run deploy` (wrangler deploy --env production) would upload, without uploading it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export function buildBundle(root, outdir) {
  execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--env', 'production', '--outdir', outdir], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = readFileSync(join(outdir, 'index.js'));
  return { path: join(outdir, 'index.js'), bytes: code.length, gzipBytes: gzipSync(code).length };
}
