// End to end, outside the test pool: serve the API and the renderer worker (every PDF) with wrangler
// dev, as `npm run dev` does (static assets included),
// fire the cron as the README says, drive /docs, a cross-origin page and a hosted invoice in headless
// Chromium (and its PDF through pdftotext), and run the example scenario through each generated client.
// Under CI Chromium is required; elsewhere its absence skips the browser check, loudly.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './browser.mjs';
import { checkCorsInBrowser } from './cors-browser.mjs';
import { checkDocsInBrowser } from './docs-browser.mjs';
import { checkHostedInvoice } from './hosted-invoice.mjs';
import { checkHostedQuote } from './hosted-quote.mjs';
import { checkReadmeCron } from './readme-cron.mjs';
import { checkSandboxPayment } from './sandbox-payment.mjs';
import { waitForHealth } from '../../scripts/wait-for-health.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = '/usr/bin/chromium';
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };
const adminToken = readFileSync(join(root, '.dev.vars'), 'utf8').match(/^ADMIN_TOKEN=(.*)$/m)?.[1]?.trim();

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** A new user through an operator invitation: their key and email. */
async function newUserKey(base) {
  const email = `browser-${Date.now()}@example.com`;
  const post = (path, body, headers = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((r) => r.json());
  const invitation = await post('/api/admin/invitations', { email }, { Authorization: `Bearer ${adminToken}` });
  const accepted = await post('/api/invitations/accept', { code: invitation.code, name: 'Browser' });
  return { key: accepted.api_key.key, email };
}

const state = mkdtempSync(join(tmpdir(), 'workspace-e2e-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
execFileSync('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], { cwd: root, env, stdio: 'ignore' });
// Pages for the CORS check: one origin the worker allows, one it does not.
const [allowedPort, otherPort] = [await freePort(), await freePort()];
const server = spawn('npx', [
  'wrangler', 'dev', '-c', 'wrangler.toml', '-c', 'src/renderer/wrangler.toml', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', state, '--show-interactive-dev-session=false', '--test-scheduled',
  '--var', `CORS_ALLOWED_ORIGINS:http://127.0.0.1:${allowedPort}`,
], {
  cwd: root,
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
  detached: true,
});
let failed = false;
let passed = 0;
try {
  await waitForHealth(base);
  console.log(`e2e: worker up on ${base}`);

  await checkReadmeCron({ root, base, key: (await newUserKey(base)).key });
  passed++;

  if (existsSync(CHROMIUM)) {
    const browser = await launchBrowser(CHROMIUM);
    try {
      await checkDocsInBrowser(base, browser);
      passed++;
      await checkCorsInBrowser({ base, ...(await newUserKey(base)), allowedPort, otherPort, browser });
      passed++;
      await checkHostedInvoice({ base, key: (await newUserKey(base)).key, browser });
      passed++;
      await checkHostedQuote({ base, key: (await newUserKey(base)).key, browser });
      passed++;
      await checkSandboxPayment({ base, key: (await newUserKey(base)).key, browser });
      passed++;
    } finally {
      await browser.close();
    }
  } else if (process.env.CI) {
    throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium`);
  } else {
    console.warn('\n!!! e2e: SKIPPED the browser checks (/docs, CORS, the hosted invoice and quote): no /usr/bin/chromium (apt-get install chromium) !!!\n');
  }

  // The working day through each generated client (openapi-typescript + openapi-fetch, and
  // @hey-api/openapi-ts), generated with each generator's defaults from the document this worker serves,
  // and type-checked under strict before they run.
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist/openapi.json'), await (await fetch(`${base}/openapi.json`)).text());
  const run = (...command) => execFileSync('npx', command, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  run('openapi-typescript', 'dist/openapi.json', '-o', 'examples/generated/api.d.ts');
  run('openapi-ts', '-i', './dist/openapi.json', '-o', 'examples/generated/hey-api');
  run('tsc', '-p', 'examples');
  console.log(`e2e: both clients generated from ${base}/openapi.json and type-checked`);
  for (const scenario of ['examples/scenario-openapi-fetch.ts', 'examples/scenario-hey-api.ts']) {
    execFileSync('npx', ['tsx', scenario], { cwd: root, env: { ...env, BASE_URL: base, ADMIN_TOKEN: adminToken }, stdio: 'inherit' });
    passed++;
  }
  console.log(`e2e: ${passed} passed, 0 failed`);
} catch (err) {
  failed = true;
  console.error(`e2e: failed: ${err instanceof Error ? err.message : err}`);
} finally {
  process.kill(-server.pid, 'SIGTERM');
  rmSync(state, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
