// The invoice as the client sees it (§10): sending finalizes it, the hosted page and PDF behind an
// unguessable link, link rotation, views counted once, and the email outbox.
import { env } from 'cloudflare:workers';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, errorPaths, expectError, open } from '../helpers/api';
import { addMember, createClient, createInvoice, createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { deliver } from '../helpers/worker';

afterEach(() => vi.restoreAllMocks());

async function studio() {
  const owner = await createUser('Owner');
  await call('PATCH', '/api/workspace', {
    key: owner.key,
    body: { issuer: { legal_name: 'Ada Studio GmbH', email: 'billing@ada.example', address: { line1: 'Hauptstr. 1', city: 'Berlin', country: 'DE' }, tax_id: 'DE123' }, payment_instructions: 'IBAN DE89 3704 0044 0532 0130 00' },
  });
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example', company: 'Initech LLC' });
  return { owner, client };
}

const sendIt = (key: string, id: string, body?: unknown) => call('POST', `/v1/invoices/${id}/send`, { key, body });

describe('sending an invoice', () => {
  it('snapshots issuer and bill-to, gives it links, and later edits change neither', async () => {
    const { owner, client } = await studio();
    const draft = await createInvoice(owner.key, { client_id: client.id });
    expect(draft).toMatchObject({ hosted_url: null, pdf_url: null, issuer: null, bill_to: null });
    const sent = await sendIt(owner.key, draft.id, { email: false });
    expect(sent.status).toBe(200);
    expect(sent.body.issuer).toMatchObject({ name: 'Owner', legal_name: 'Ada Studio GmbH', tax_id: 'DE123', address: { city: 'Berlin' } });
    expect(sent.body.bill_to).toMatchObject({ name: 'Initech', email: 'ap@initech.example', company: 'Initech LLC' });
    expect(sent.body.hosted_url).toMatch(/^https:\/\/workspace\.test\/i\/[A-Za-z0-9_-]{43}$/);
    expect(sent.body.pdf_url).toBe(`${sent.body.hosted_url}/pdf`);

    await call('PATCH', `/v1/clients/${client.id}`, { key: owner.key, body: { name: 'Initrode' } });
    await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer: { legal_name: 'Renamed AG' } } });
    const again = await call('GET', `/v1/invoices/${draft.id}`, { key: owner.key });
    expect(again.body.bill_to.name).toBe('Initech');
    expect(again.body.issuer.legal_name).toBe('Ada Studio GmbH');
    // The same link on every read, in lists too; never stored in events.
    expect(again.body.hosted_url).toBe(sent.body.hosted_url);
    expect((await call('GET', '/v1/invoices', { key: owner.key })).body.data[0].hosted_url).toBe(sent.body.hosted_url);
    const events = JSON.stringify((await call('GET', '/api/events?limit=100', { key: owner.key })).body);
    expect(events).not.toContain(sent.body.hosted_url.split('/i/')[1]);
    const stored = await env.DB.prepare('SELECT link_hash FROM invoices WHERE id = ?').bind(draft.id).first<{ link_hash: string }>();
    expect(stored!.link_hash).not.toContain(sent.body.hosted_url.split('/i/')[1]);
  });

  it('refuses a bad recipient or an unknown field, and changes nothing', async () => {
    const { owner, client } = await studio();
    const draft = await createInvoice(owner.key, { client_id: client.id });
    const bad = await sendIt(owner.key, draft.id, { to: ['not-an-email'] });
    expectError(bad, 422, 'validation_failed');
    expect(errorPaths(bad)).toEqual(['to.0']);
    expectError(await sendIt(owner.key, draft.id, { bcc: ['x@example.com'] }), 422, 'validation_failed');
    expect((await call('GET', `/v1/invoices/${draft.id}`, { key: owner.key })).body.status).toBe('draft');
  });
});

describe('the hosted page', () => {
  it('shows everything the client needs, formatted in the locale and the currency\'s minor units', async () => {
    await putRates({ JPY: 150, KWD: 0.3 });
    const { owner, client } = await studio();
    const yen = await createInvoice(owner.key, { client_id: client.id, currency: 'JPY', line_items: [{ description: 'Design Ωμέγα и кириллица', quantity: 2, unit_amount: 600 }] });
    const sent = (await sendIt(owner.key, yen.id, { email: false })).body;
    const page = await open(sent.hosted_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toContain('text/html');
    for (const [name, value] of Object.entries({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex', 'X-Content-Type-Options': 'nosniff' })) {
      expect(page.headers.get(name), name).toBe(value);
    }
    const csp = page.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    for (const text of ['Ada Studio GmbH', 'Initech', yen.number, '¥1,200', 'Design Ωμέγα и кириллица', 'IBAN DE89', 'Hauptstr. 1', '/pdf']) expect(html, text).toContain(text);

    const kwd = await createInvoice(owner.key, { client_id: client.id, currency: 'KWD', line_items: [{ description: 'Audit', quantity: 1, unit_amount: 12_345 }] });
    const kwdPage = await (await open((await sendIt(owner.key, kwd.id, { email: false })).body.hosted_url)).text();
    expect(kwdPage).toContain('KWD\u00a012.345');
  });

  it('says PAID, VOID or Overdue in its banner', async () => {
    const { owner, client } = await studio();
    const overdue = await createInvoice(owner.key, { client_id: client.id, issue_date: '2025-01-01', due_date: '2025-01-31' });
    const url = (await sendIt(owner.key, overdue.id, { email: false })).body.hosted_url;
    expect(await (await open(url)).text()).toContain('>Overdue<');
    await call('POST', `/v1/invoices/${overdue.id}/payments`, { key: owner.key, body: { amount: overdue.total } });
    expect(await (await open(url)).text()).toContain('>PAID<');
    const voided = await createInvoice(owner.key, { client_id: client.id });
    const voidUrl = (await sendIt(owner.key, voided.id, { email: false })).body.hosted_url;
    await call('POST', `/v1/invoices/${voided.id}/void`, { key: owner.key });
    expect(await (await open(voidUrl)).text()).toContain('>VOID<');
  });

  it('answers a plain 404 page to an unknown, malformed or rotated link, and to a draft', async () => {
    const { owner, client } = await studio();
    const invoice = await createInvoice(owner.key, { client_id: client.id });
    const old = (await sendIt(owner.key, invoice.id, { email: false })).body;
    for (const url of ['https://workspace.test/i/nope', `https://workspace.test/i/${'A'.repeat(43)}`, 'https://workspace.test/i/%00']) {
      const res = await open(url);
      expect(res.status, url).toBe(404);
      expect(await res.text()).toContain('Not found');
    }
    const rotated = await call('POST', `/v1/invoices/${invoice.id}/share-link`, { key: owner.key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.hosted_url).not.toBe(old.hosted_url);
    expect((await open(old.hosted_url)).status).toBe(404);
    expect((await open(old.pdf_url)).status).toBe(404);
    expect((await open(rotated.body.hosted_url)).status).toBe(200);
    const draft = await createInvoice(owner.key, { client_id: client.id });
    expectError(await call('POST', `/v1/invoices/${draft.id}/share-link`, { key: owner.key }), 409, 'invalid_state');
    // Viewers may not rotate links.
    const viewer = await addMember(owner.key, 'viewer');
    expectError(await call('POST', `/v1/invoices/${invoice.id}/share-link`, { key: viewer.key }), 403, 'forbidden');
  });

  it('counts the first view from a browser once, never a plain fetch, and never the preview', async () => {
    const { owner, client } = await studio();
    const invoice = await createInvoice(owner.key, { client_id: client.id });
    const url = (await sendIt(owner.key, invoice.id, { email: false })).body.hosted_url;
    await open(url); // a link scanner: fetches, runs no script
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body.viewed_at).toBeNull();
    const preview = await call('GET', `/v1/invoices/${invoice.id}/preview`, { key: owner.key });
    expect(preview.status).toBe(200);
    expect(preview.body).not.toContain('sendBeacon');
    // The page's script reports the view, twice over as a browser might.
    expect((await open(`${url}/view`, { method: 'POST' })).status).toBe(204);
    expect((await open(`${url}/view`, { method: 'POST' })).status).toBe(204);
    const viewed = await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key });
    expect(viewed.body.viewed_at).toEqual(expect.any(String));
    const events = (await call('GET', '/api/events?type=invoice.viewed', { key: owner.key })).body.data;
    expect(events).toHaveLength(1);
    expect(events[0].actor).toEqual({ type: 'system', id: null, name: 'hosted_page' });
  });

  // Rendering a PDF takes seconds of CPU, several times that on a busy machine.
  it('serves the PDF inline, named by the number, for the client and (drafts too) for a key', { timeout: 120_000 }, async () => {
    const { owner, client } = await studio();
    const invoice = await createInvoice(owner.key, { client_id: client.id, number: 'INV-PDF-1' });
    const keyed = await call('GET', `/v1/invoices/${invoice.id}/pdf`, { key: owner.key });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('Content-Type')).toBe('application/pdf');
    const url = (await sendIt(owner.key, invoice.id, { email: false })).body.pdf_url;
    const pdf = await open(url);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
    expect(pdf.headers.get('Content-Disposition')).toBe('inline; filename="INV-PDF-1.pdf"');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  });

  it('prints characters the font lacks as a replacement glyph, and a 100-line invoice on several pages', { timeout: 120_000 }, async () => {
    const { owner, client } = await studio();
    const lines = Array.from({ length: 100 }, (_, i) => ({ description: `Line ${i + 1} 漢字 🙂 ${'long words '.repeat(i % 7)}`, quantity: 1, unit_amount: 1_000 }));
    const invoice = await createInvoice(owner.key, { client_id: client.id, line_items: lines });
    const res = await open(`https://workspace.test/v1/invoices/${invoice.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(res.status).toBe(200);
    const pdf = await PDFDocument.load(await res.arrayBuffer());
    expect(pdf.getPageCount()).toBeGreaterThan(2);
  });
});

describe('the email', () => {
  it('queues one email with the link when sent, and the log provider records it as sent', async () => {
    const { owner, client } = await studio();
    const invoice = await createInvoice(owner.key, { client_id: client.id });
    const queued: unknown[] = [];
    vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
      for (const m of batch) queued.push(m.body);
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
    });
    await sendIt(owner.key, invoice.id, { cc: ['boss@initech.example'], message: 'Thanks for the project!' });
    const deliveries = (await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data;
    expect(deliveries).toEqual([expect.objectContaining({ kind: 'invoice', to: ['ap@initech.example'], cc: ['boss@initech.example'], status: 'queued', attempts: 0 })]);
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    await deliver('workspace-emails', queued.map((body, i) => ({ id: `e${i}`, body })));
    const email = JSON.parse(logged.mock.calls.map((c) => String(c[0])).find((line) => line.includes('email (log provider'))!);
    expect(email.subject).toBe(`Invoice ${invoice.number} from Ada Studio GmbH`);
    expect(email.text).toContain('Thanks for the project!');
    expect(email.text).toContain('/i/');
    expect(email.text).toContain('$1,000.00');
    expect((await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data[0]).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  });

  it('sends nothing with email: false or without a recipient', async () => {
    const owner = await createUser();
    const noEmail = await createClient(owner.key, { name: 'Walk-in' });
    const invoice = await createInvoice(owner.key, { client_id: noEmail.id });
    expect((await sendIt(owner.key, invoice.id)).status).toBe(200);
    expect((await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data).toEqual([]);
  });
});

describe('the email service', () => {
  it('posts the JSON shape of §10 with the key, retries a failure on the schedule, and fails after the fifth attempt', async () => {
    const { owner, client } = await studio();
    const invoice = await createInvoice(owner.key, { client_id: client.id });
    const queued: { body: unknown; delaySeconds?: number }[] = [];
    vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
      for (const m of batch) queued.push({ body: m.body, delaySeconds: m.delaySeconds });
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
    });
    const posted: { auth: string | null; body: any }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      posted.push({ auth: request.headers.get('Authorization'), body: await request.json() });
      return new Response('mailbox on fire', { status: 503 });
    });
    const httpEnv = { ...env, EMAIL_PROVIDER: 'http', EMAIL_API_URL: 'https://mail.example.com/send', EMAIL_API_KEY: 'mk_test', EMAIL_FROM: 'Ada <billing@ada.example>' };
    // Sending the invoice succeeds while the email service is down.
    expect((await sendIt(owner.key, invoice.id, { to: ['ap@initech.example'] })).status).toBe(200);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { consumeEmails, EMAIL_RETRY_DELAYS_MS } = await import('../../src/modules/emails/consumer');
    const run = async () => {
      const next = queued.splice(0);
      const messages = next.map((m, i) => ({ id: `m${i}`, body: m.body, attempts: 1, timestamp: new Date(), ack() {}, retry() {} }));
      await consumeEmails({ queue: 'workspace-emails', messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, httpEnv as Env);
      return next;
    };
    for (let attempt = 1; attempt <= 5; attempt++) {
      await env.DB.prepare('UPDATE email_deliveries SET next_attempt_at = ? WHERE invoice_id = ?').bind(new Date(Date.now() - 1000).toISOString(), invoice.id).run();
      if (!queued.length) queued.push({ body: { delivery_id: (await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data[0].id } });
      await run();
      const [row] = (await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data;
      expect(row.attempts).toBe(attempt);
      expect(row.last_error).toContain('503');
      expect(row.status).toBe(attempt < 5 ? 'queued' : 'failed');
      if (attempt < 5) expect(queued[0]!.delaySeconds).toBe(EMAIL_RETRY_DELAYS_MS[attempt - 1]! / 1000);
    }
    expect(queued).toEqual([]);
    expect(posted).toHaveLength(5);
    expect(posted[0]!.auth).toBe('Bearer mk_test');
    expect(posted[0]!.body).toMatchObject({ from: 'Ada <billing@ada.example>', to: ['ap@initech.example'], subject: `Invoice ${invoice.number} from Ada Studio GmbH` });
    expect(posted[0]!.body.html).toContain('/i/');
    expect(posted[0]!.body.text).toContain('Amount due: $1,000.00');
    expect(posted[0]!.body).not.toHaveProperty('attachments');
    expect(warn).toHaveBeenCalled();
  });
});
