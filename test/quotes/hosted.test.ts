// The client's page of a quote (§18): headers and CSP of §10 with forms posting to the page itself,
// the answer taken only from the page (a forged cross-origin post changes nothing), once, recorded
// with its time, address and user agent under the client's own name; expired and canceled quotes
// say why and offer no form.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, open } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import { deliver } from '../helpers/worker';

afterEach(() => vi.restoreAllMocks());

const lines = [{ description: 'Brand workshop', quantity: 2, unit: 'DAY', unit_amount: 80_000, tax_rate: 19 }];

async function sentQuote(body: Record<string, unknown> = {}) {
  const owner = await createUser('Owner');
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  const quote = (await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: lines, ...body } })).body;
  const sent = (await call('POST', `/v1/quotes/${quote.id}/send`, { key: owner.key })).body;
  return { owner, quote: sent as { id: string; hosted_url: string; pdf_url: string; number: string } };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const post = (url: string, fields: Record<string, string>, headers: Record<string, string>) =>
  open(url, { method: 'POST', body: form(fields), headers: { ...FORM, ...headers }, redirect: 'manual' });
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'User-Agent': 'Mozilla/5.0 (iPhone) TestBrowser' };

const quoteOf = async (key: string, id: string) => (await call('GET', `/v1/quotes/${id}`, { key })).body;

describe('the quote page', () => {
  it('shows the quote with both forms under the headers of §10, its forms posting only to itself', async () => {
    const { quote } = await sentQuote({ terms: 'Valid for the dates agreed.' });
    const page = await open(quote.hosted_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(page.headers.get('Cache-Control')).toBe('no-store');
    expect(page.headers.get('X-Robots-Tag')).toBe('noindex');
    const csp = page.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain(`Quote ${quote.number}`);
    expect(html).toContain('Valid until');
    expect(html).toContain('Valid for the dates agreed.');
    expect(html).toContain(`action="/q/${quote.hosted_url.split('/q/')[1]}/accept"`);
    expect(html).toContain('I accept this quote');
    expect(html).toContain('/decline"');
    expect(html).not.toContain('Amount due');
    const pdf = await open(quote.pdf_url);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
    expect((await open(quote.hosted_url.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')))).status).toBe(404);
  });

  it('takes the client\'s acceptance once, with name, PO, time, address and agent, as the client', async () => {
    const { owner, quote } = await sentQuote();
    const res = await post(`${quote.hosted_url}/accept`, { name: 'Bill Lumbergh', po_number: 'PO-7781', agree: 'yes' }, { ...SAME_ORIGIN, 'CF-Connecting-IP': '203.0.113.7' });
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(new URL(quote.hosted_url).pathname);
    const accepted = await quoteOf(owner.key, quote.id);
    expect(accepted).toMatchObject({ status: 'accepted', accepted: { name: 'Bill Lumbergh', po_number: 'PO-7781', method: 'online' } });
    const stored = JSON.parse((await env.DB.prepare('SELECT accepted FROM quotes WHERE id = ?').bind(quote.id).first<{ accepted: string }>())!.accepted);
    expect(stored).toMatchObject({ ip: '203.0.113.7', user_agent: 'Mozilla/5.0 (iPhone) TestBrowser' });
    const event = (await call('GET', '/api/events?type=quote.accepted', { key: owner.key })).body.data[0];
    expect(event.actor).toEqual({ type: 'client', id: null, name: 'Bill Lumbergh' });

    // A second answer changes nothing and the page shows the quote as it now stands.
    const again = await post(`${quote.hosted_url}/decline`, { reason: 'Changed my mind' }, SAME_ORIGIN);
    expect(again.status).toBe(303);
    expect(await quoteOf(owner.key, quote.id)).toMatchObject({ status: 'accepted', declined: null });
    const html = await (await open(quote.hosted_url)).text();
    expect(html).toContain('Accepted by Bill Lumbergh');
    expect(html).not.toContain('<form');
  });

  it('takes a decline with its reason, under the name on the quote', async () => {
    const { owner, quote } = await sentQuote();
    expect((await post(`${quote.hosted_url}/decline`, { reason: 'Over budget this quarter.' }, SAME_ORIGIN)).status).toBe(303);
    expect(await quoteOf(owner.key, quote.id)).toMatchObject({ status: 'declined', declined: { reason: 'Over budget this quarter.' } });
    const event = (await call('GET', '/api/events?type=quote.declined', { key: owner.key })).body.data[0];
    expect(event.actor).toEqual({ type: 'client', id: null, name: 'Initech' });
    expect(await (await open(quote.hosted_url)).text()).toContain('Declined on');
  });

  it('refuses every post that does not come from the page itself, and changes nothing', async () => {
    const { owner, quote } = await sentQuote();
    const fields = { name: 'Mallory', agree: 'yes' };
    const forged: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://pay.workspace.test' },
      // A browser without Sec-Fetch-Site: the Origin must be the page's own.
      { Origin: 'https://evil.example' },
      // `null` is what any sandboxed frame sends: it proves nothing.
      { Origin: 'null' },
      // No browser headers at all (a script).
      {},
      // Sec-Fetch-Site decides when present, whatever Origin claims.
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://workspace.test' },
    ];
    for (const headers of forged) {
      const res = await post(`${quote.hosted_url}/accept`, fields, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect((await post(`${quote.hosted_url}/decline`, { reason: 'forged' }, headers)).status).toBe(403);
    }
    expect(await quoteOf(owner.key, quote.id)).toMatchObject({ status: 'open', accepted: null, declined: null });
    expect((await call('GET', '/api/events?type=quote.accepted', { key: owner.key })).body.data).toEqual([]);
    // A browser without Sec-Fetch-Site whose Origin is the page's own is the page.
    expect((await post(`${quote.hosted_url}/accept`, fields, { Origin: 'https://workspace.test' })).status).toBe(303);
    expect((await quoteOf(owner.key, quote.id)).status).toBe('accepted');
  });

  it('an incomplete form (no checkbox) accepts nothing', async () => {
    const { owner, quote } = await sentQuote();
    expect((await post(`${quote.hosted_url}/accept`, { name: 'Bill' }, SAME_ORIGIN)).status).toBe(303);
    expect((await quoteOf(owner.key, quote.id)).status).toBe('open');
  });

  it('converts at once when the client accepts a quote set to draft_invoice', async () => {
    const { owner, quote } = await sentQuote({ on_accept: 'draft_invoice' });
    await post(`${quote.hosted_url}/accept`, { name: 'Bill', po_number: 'PO-9', agree: 'yes' }, SAME_ORIGIN);
    const converted = await quoteOf(owner.key, quote.id);
    expect(converted.status).toBe('converted');
    expect((await call('GET', `/v1/invoices/${converted.invoice_id}`, { key: owner.key })).body).toMatchObject({ status: 'draft', purchase_order: 'PO-9', quote_id: quote.id });
  });

  it('says why an expired or canceled quote offers no form, and refuses answers to it', async () => {
    const { owner, quote } = await sentQuote({ issue_date: '2024-01-01', valid_until: '2024-01-31' });
    const html = await (await open(quote.hosted_url)).text();
    expect(html).toContain('This quote has expired');
    expect(html).not.toContain('<form');
    await post(`${quote.hosted_url}/accept`, { name: 'Late', agree: 'yes' }, SAME_ORIGIN);
    expect((await quoteOf(owner.key, quote.id)).status).toBe('open'); // the cron expires it; no answer is taken meanwhile

    const other = await sentQuote();
    await call('POST', `/v1/quotes/${other.quote.id}/cancel`, { key: other.owner.key });
    const canceled = await (await open(other.quote.hosted_url)).text();
    expect(canceled).toContain('canceled this quote');
    expect(canceled).not.toContain('<form');
  });

  it('counts the first view in a browser once', async () => {
    const { owner, quote } = await sentQuote();
    await open(quote.hosted_url);
    expect((await quoteOf(owner.key, quote.id)).viewed_at).toBeNull();
    await open(`${quote.hosted_url}/view`, { method: 'POST' });
    await open(`${quote.hosted_url}/view`, { method: 'POST' });
    expect((await quoteOf(owner.key, quote.id)).viewed_at).not.toBeNull();
    expect((await call('GET', '/api/events?type=quote.viewed', { key: owner.key })).body.data).toHaveLength(1);
  });
});

describe('the quote email', () => {
  it('queues one email with the link when the quote is sent, sent once however often its message comes', async () => {
    const owner = await createUser('Ada Studio');
    const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
    const draft = (await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: lines } })).body;
    const queued: unknown[] = [];
    vi.spyOn(env.EMAILS_QUEUE, 'send').mockImplementation(async (body) => void queued.push(body) as never);
    const sent = (await call('POST', `/v1/quotes/${draft.id}/send`, { key: owner.key, body: { message: 'As discussed on Monday.' } })).body;
    expect(queued).toEqual([{ quote_id: draft.id }]);
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    await deliver('workspace-emails', [{ id: 'q1', body: queued[0] }, { id: 'q2', body: queued[0] }]);
    // Only this quote's emails: the runtime's own queue may deliver other tests' messages meanwhile.
    const emails = logged.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('email (log provider') && line.includes(sent.hosted_url));
    expect(emails).toHaveLength(1);
    const email = JSON.parse(emails[0]!);
    expect(email.to).toEqual(['ap@initech.example']);
    expect(email.subject).toBe(`Quote ${sent.number} from Ada Studio`);
    expect(email.text).toContain(sent.hosted_url);
    expect(email.text).toContain('As discussed on Monday.');
    expect(email.text).toContain('$1,904.00');
    const row = await env.DB.prepare('SELECT email_status, email_attempts FROM quotes WHERE id = ?').bind(draft.id).first();
    expect(row).toEqual({ email_status: 'sent', email_attempts: 1 });
  });

  it('sends nothing with email: false or without a recipient', async () => {
    const owner = await createUser();
    const walkIn = await createClient(owner.key, { name: 'Walk-in' });
    const send = vi.spyOn(env.EMAILS_QUEUE, 'send');
    for (const [clientId, body] of [[walkIn.id, undefined], [(await createClient(owner.key, { email: 'x@example.com' })).id, { email: false }]] as const) {
      const draft = (await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: clientId, line_items: lines } })).body;
      expect((await call('POST', `/v1/quotes/${draft.id}/send`, { key: owner.key, body })).status).toBe(200);
    }
    expect(send).not.toHaveBeenCalled();
  });
});
