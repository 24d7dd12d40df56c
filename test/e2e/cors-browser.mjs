// CORS in a real browser (§13): a page served from an allowed origin calls the API with a key and
// reads the answer; the same page from another origin sends the request but cannot read it.
import { createServer } from 'node:http';

/** A page whose script calls GET /api/me with the key and shows what it could read. */
const pageHtml = (base, key) => `<!doctype html><meta charset="utf-8"><title>calling</title>
<script>
fetch(${JSON.stringify(`${base}/api/me`)}, { headers: { Authorization: ${JSON.stringify(`Bearer ${key}`)} } })
  .then((res) => res.json().then((body) => { document.title = 'read ' + res.status + ' ' + (body.user ? body.user.email : ''); }))
  .catch((err) => { document.title = 'blocked ' + err.name; });
</script>`;

/** Serves the page on `port` of 127.0.0.1; resolves to a function that stops it. */
function servePage(port, html) {
  return new Promise((resolve) => {
    const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html));
    server.listen(port, '127.0.0.1', () => resolve(() => new Promise((done) => server.close(done))));
  });
}

export async function checkCorsInBrowser({ base, key, email, allowedPort, otherPort, browser }) {
  const stops = [await servePage(allowedPort, pageHtml(base, key)), await servePage(otherPort, pageHtml(base, key))];
  const context = await browser.newContext();
  const titleOn = async (port) => {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => document.title !== 'calling', null, { timeout: 15_000 });
    return page.title();
  };
  try {
    const allowed = await titleOn(allowedPort);
    if (allowed !== `read 200 ${email}`) throw new Error(`the allowed origin could not read /api/me: ${allowed}`);
    const other = await titleOn(otherPort);
    if (!other.startsWith('blocked')) throw new Error(`another origin read the answer: ${other}`);
    console.log(`e2e: CORS in Chromium: http://127.0.0.1:${allowedPort} read /api/me; http://127.0.0.1:${otherPort} was ${other.toLowerCase()}`);
  } finally {
    await context.close();
    await Promise.all(stops.map((stop) => stop()));
  }
}
