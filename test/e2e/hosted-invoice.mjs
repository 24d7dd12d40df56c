// The hosted invoice as a client meets it, in a real browser and a real PDF reader:
// - Chromium at 375 px: no console errors (CSP included), no horizontal scroll, the view counted
//   once however often the page is opened, and the page prints to PDF;
// - pdftotext finds the number, the client and the totals as printed, in Latin, Greek and Cyrillic,
//   for a yen and a Kuwaiti dinar invoice.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function api(base, key, method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A sent invoice in `currency` for a client with a Greek and Cyrillic name; its API record. */
async function sentInvoice(base, key, currency, lines) {
  const client = await api(base, key, 'POST', '/v1/clients', { name: 'Ωμέγα Λτδ / ООО Ромашка', currency });
  const invoice = await api(base, key, 'POST', '/v1/invoices', { client_id: client.id, line_items: lines });
  return api(base, key, 'POST', `/v1/invoices/${invoice.id}/send`, { email: false });
}

export async function checkHostedInvoice({ base, key, browser }) {
  await api(base, key, 'PATCH', '/api/workspace', { issuer: { legal_name: 'Ada Studio GmbH', address: { line1: 'Hauptstraße 1', city: 'Berlin', country: 'DE' } }, payment_instructions: 'IBAN DE89 3704 0044 0532 0130 00' });
  const longLine = { description: 'Redesign of the checkout, with a description long enough to wrap on a phone screen several times over', quantity: 12.5, unit_amount: 9_600, tax_rate: 19 };
  const yen = await sentInvoice(base, key, 'JPY', [{ description: 'Дизайн и разработка', quantity: 2, unit_amount: 600 }, longLine]);
  const dinar = await sentInvoice(base, key, 'KWD', [{ description: 'Έλεγχος λογαριασμών', quantity: 1, unit_amount: 12_345 }]);

  const dir = mkdtempSync(join(tmpdir(), 'workspace-hosted-'));
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (err) => problems.push(String(err)));
    for (let i = 0; i < 2; i++) {
      await page.goto(yen.hosted_url, { waitUntil: 'networkidle' });
    }
    if (problems.length) throw new Error(`the hosted page logged errors: ${problems.join(' | ')}`);
    const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
    if (width.scroll > width.view) throw new Error(`the hosted page scrolls sideways at 375 px (${width.scroll} px wide)`);
    const shown = await page.textContent('body');
    for (const text of ['¥1,200', 'Дизайн и разработка', 'Ada Studio GmbH', yen.number, 'IBAN DE89']) {
      if (!shown.includes(text)) throw new Error(`the hosted page does not show ${text}`);
    }
    const screenshot = join(tmpdir(), 'workspace-hosted-invoice.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    const printed = await page.pdf({ format: 'A4' });
    if (printed.subarray(0, 5).toString() !== '%PDF-') throw new Error('the hosted page did not print to PDF');
    await page.pdf({ format: 'Letter' });

    const after = await api(base, key, 'GET', `/v1/invoices/${yen.id}`);
    const views = await api(base, key, 'GET', '/api/events?type=invoice.viewed');
    if (!after.viewed_at) throw new Error('opening the page in a browser did not set viewed_at');
    if (views.data.filter((e) => e.data.object.id === yen.id).length !== 1) throw new Error(`the view was not counted exactly once: ${views.data.length}`);
    console.log(`e2e: hosted invoice in Chromium at 375 px: no errors, ${width.scroll} px wide, view counted once, prints on A4 and Letter; screenshot ${screenshot}`);
  } finally {
    await context.close();
  }

  // ¥: 2 × 600 plus 12.5 × 9,600 with 19 % tax = ¥144,000 in all; KWD 12.345 is the dinar's only line.
  if (yen.total !== 144_000 || dinar.total !== 12_345) throw new Error(`unexpected totals: ${yen.total} JPY, ${dinar.total} KWD`);
  const printedAs = [
    [yen, ['¥1,200', '¥144,000', 'Дизайн и разработка', yen.number]],
    [dinar, ['KWD 12.345', 'Έλεγχος λογαριασμών', dinar.number]],
  ];
  for (const [invoice, amounts] of printedAs) {
    const res = await fetch(invoice.pdf_url);
    if (res.headers.get('content-type') !== 'application/pdf') throw new Error(`${invoice.pdf_url} answered ${res.status} ${res.headers.get('content-type')}`);
    const file = join(dir, `${invoice.number}.pdf`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\u00a0/g, ' ');
    for (const expected of [...amounts, 'Ωμέγα Λτδ / ООО Ромашка', 'Ada Studio GmbH', 'Hauptstraße 1']) {
      if (!text.includes(expected)) throw new Error(`pdftotext did not find "${expected}" in ${invoice.number}.pdf:\n${text}`);
    }
  }
  console.log('e2e: pdftotext finds the number, the Greek and Cyrillic client name and lines, and the JPY and KWD amounts and totals in each PDF');
}
