// npm run bench:pdf-reading (about a minute): what reading a received PDF costs the renderer worker in workerd, the
// way the API asks for it (§21: readInboundPdf → RENDERER.readPdf). The renderer as it would deploy (wrangler
// deploy --dry-run), served by Miniflare beside a caller worker that has the RENDERER binding; each file is POSTed
// to the caller, which hands its bytes to readPdf over RPC. CPU is workerd's (user + system, /proc), read around
// ROUNDS posts of a file, less the same posts to a caller route that receives the bytes and reads nothing: so the
// figure is the RPC hand-over and the reading. The files: the 100-line Factur-X invoice of bench/einvoice.mjs, and
// the hostile PDFs of test/inbound-documents/read-pdf.test.ts. (Ticks are 10 ms: rounds of several posts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';
import { renderCii } from '../src/modules/documents/einvoice/cii.ts';
import { printedDocument } from '../src/modules/documents/render/printed.ts';
import { valueOfEInvoice } from '../src/modules/documents/value.ts';
import { pdfDocument } from '../src/renderer/contract.ts';
import { makeFacturX } from '../src/renderer/facturx.ts';
import { renderInvoicePdf } from '../src/renderer/pdf.ts';
import { FIXTURES } from '../test/einvoice/fixtures.ts';
import * as files from '../test/inbound-documents/pdf-files.ts';
import { buildBundle, RENDERER_BUILD } from './harness/build.mjs';
import { cpuSeconds, findWorkerdPid } from './harness/cpu.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 5;

const CALLER = `
export default {
  async fetch(request, env) {
    const bytes = await request.arrayBuffer();
    if (new URL(request.url).pathname === '/receive') return Response.json({ bytes: bytes.byteLength });
    const reading = await env.RENDERER.readPdf(bytes);
    return Response.json(reading.ok ? { ok: true, xml: reading.xml && reading.xml.name, text: reading.text.length } : reading);
  },
};`;

const doc = FIXTURES['100-lines-line-rounding'];
const facturX = await renderInvoicePdf(pdfDocument(printedDocument(valueOfEInvoice(doc, 'en-US'))), (pdf) => makeFacturX(pdf, renderCii(doc)));
const cases = [
  ['Factur-X PDF of a 100-line invoice (91 KB)', facturX, 20],
  ['10 MB: 58,000 objects nested 60 deep, then 100,000', files.deeplyNestedObjects(), ROUNDS],
  ['10 MB: 400,000 tiny objects', files.manyObjects(), ROUNDS],
  ['1 MB deflate bomb (1 GB) in a page', await files.bombInPage(4_000_000), ROUNDS],
  ['1 MB deflate bomb (1 GB) in an object stream', files.bombInObjectStream(4_000_000), ROUNDS],
  ['2 object streams of 9.4 MB each (16 MB in all)', files.bombsInObjectStreams(2, 38_000), ROUNDS],
  ['10 MB of strings that never end (lexing ceiling)', files.unterminatedStrings(10 * 1024 * 1024), ROUNDS],
  ['2 MB: a font too large to keep, read for each of 10,000 uses (lexing ceiling)', files.fontReadAgainAndAgain(), ROUNDS],
  ['10 MB of drawing, no text (8 MB read; ok, empty)', files.drawingWithoutText(), ROUNDS],
];

const work = mkdtempSync(join(tmpdir(), 'workspace-pdf-reading-'));
let mf;
try {
  const renderer = buildBundle(root, join(work, 'renderer'), RENDERER_BUILD);
  const config = unstable_readConfig({ config: join(root, 'src/renderer/wrangler.toml') });
  mf = new Miniflare({
    workers: [
      { name: 'caller', modules: true, script: CALLER, compatibilityDate: config.compatibility_date, serviceBindings: { RENDERER: config.name } },
      { name: config.name, modules: true, modulesRoot: dirname(renderer.path), modules: [{ type: 'ESModule', path: renderer.path }], compatibilityDate: config.compatibility_date },
    ],
  });
  await mf.ready;
  const pid = findWorkerdPid();
  const post = async (path, bytes) => (await mf.dispatchFetch(`http://caller${path}`, { method: 'POST', body: bytes })).json();
  const cpuOf = async (path, bytes, n) => {
    const start = cpuSeconds(pid);
    let answer;
    for (let i = 0; i < n; i++) answer = await post(path, bytes);
    return { ms: ((cpuSeconds(pid) - start) * 1000) / n, answer };
  };
  console.log('| received PDF | workerd CPU ms per reading | answer |');
  console.log('|---|---|---|');
  for (const [name, bytes, n] of cases) {
    await post('/read', bytes); // warm-up
    const read = await cpuOf('/read', bytes, n);
    const received = await cpuOf('/receive', bytes, n);
    console.log(`| ${name} | ${Math.max(0, read.ms - received.ms).toFixed(1)} (receiving the bytes: ${received.ms.toFixed(1)}) | ${JSON.stringify(read.answer).slice(0, 90)} |`);
  }
} finally {
  await mf?.dispose();
  rmSync(work, { recursive: true, force: true });
}
