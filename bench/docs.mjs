// /docs as a first visitor sees it: `wrangler dev` of both workers (as `npm run dev` and the e2e serve
// them), a new headless Chromium, and the page's own clock when the first operation is in the page.
// Each run starts a new server, so its first visit meets a cold worker (the document not yet built);
// a second visit in the same run meets the document built. `node bench/docs.mjs [runs]`.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { waitForHealth } from '../scripts/wait-for-health.mjs';

const CHROMIUM = '/usr/bin/chromium';
const port = 8800 + Math.floor(Math.random() * 100);
const base = `http://127.0.0.1:${port}`;

/** When the operations were shown, and when the document and Swagger UI's script had arrived. */
async function visit(browser) {
  const page = await browser.newPage();
  await page.goto(`${base}/docs`);
  await page.waitForSelector('.opblock', { timeout: 60_000 });
  const shown = Math.round(await page.evaluate(() => performance.now()));
  const arrived = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType('resource').filter((e) => /openapi\.json|swagger-ui-bundle/.test(e.name)).map((e) => [e.name.split('/').pop(), Math.round(e.responseEnd)])));
  await page.close();
  return `operations shown at ${shown} ms (document arrived at ${arrived['openapi.json']} ms, script at ${arrived['swagger-ui-bundle.js']} ms)`;
}

for (let run = 0; run < Number(process.argv[2] ?? 3); run++) {
  const server = spawn('npx', ['wrangler', 'dev', '-c', 'wrangler.toml', '-c', 'src/renderer/wrangler.toml', '--ip', '127.0.0.1', '--port', String(port), '--show-interactive-dev-session=false'], {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: 'ignore', detached: true,
  });
  try {
    await waitForHealth(base);
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    console.log(`cold worker, load ${loadavg()[0].toFixed(1)}: ${await visit(browser)}`);
    console.log(`document built, load ${loadavg()[0].toFixed(1)}: ${await visit(browser)}`);
    await browser.close();
  } finally {
    process.kill(-server.pid, 'SIGTERM');
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
