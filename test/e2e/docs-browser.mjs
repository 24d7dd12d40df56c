// /docs in a real browser: it renders the operations, asks nothing of any host but this one,
// and "Try it out" on GET /health shows a 200.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export async function checkDocsInBrowser(base, executablePath) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'workspace-chromium-'));
  // A fresh profile; background networking off, so the only requests are the page's own.
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    const requested = [];
    page.on('request', (request) => requested.push(request.url()));
    // The page runs under a strict CSP (script-src 'self'): anything it blocks is a broken page.
    const blocked = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const operations = await page.locator('.opblock').count();
    if (operations < 40) throw new Error(`/docs rendered only ${operations} operations`);

    const health = page.locator('.opblock-get', { has: page.locator('[data-path="/health"]') }).first();
    await health.locator('.opblock-summary').click();
    // The page opens operations ready to try (tryItOutEnabled); press "Try it out" only if offered.
    const execute = health.getByRole('button', { name: 'Execute' });
    if (!(await execute.isVisible())) await health.getByRole('button', { name: 'Try it out' }).click();
    await execute.click();
    const status = health.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    const shown = (await status.innerText()).trim();
    if (shown !== '200') throw new Error(`"Try it out" on /health showed ${shown}`);

    // The operation as a reader sees it after Execute: the request, and the live 200 under it.
    const screenshot = join(tmpdir(), 'workspace-docs.png');
    await status.scrollIntoViewIfNeeded();
    await health.screenshot({ path: screenshot });
    if (blocked.length) throw new Error(`/docs broke its own CSP: ${blocked.join(' | ')}`);
    const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
    if (stored.includes('wsk_') || stored.includes('authorized')) throw new Error(`/docs kept credentials in localStorage: ${stored}`);
    const foreign = requested.filter((url) => !url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:'));
    if (foreign.length) throw new Error(`/docs requested other hosts: ${foreign.join(', ')}`);
    console.log(`e2e: /docs rendered ${operations} operations, made ${requested.length} requests (all to ${base}), "Try it out" on /health showed 200; screenshot ${screenshot}`);
  } finally {
    await browser.close();
  }
}
