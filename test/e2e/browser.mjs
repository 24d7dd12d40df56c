// One headless Chromium for every browser check of the run: each check opens a context of its own
// (no cache, no cookies, its own viewport) and closes it, so the checks stay apart without starting
// the browser again each time (a start took about 1.7 s here).
import { chromium } from 'playwright-core';

/** Background networking, sync and updates off, so the only requests are the pages' own. */
export const launchBrowser = (executablePath) =>
  chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
