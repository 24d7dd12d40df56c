// Quotes (§18): drafts on the §15 lines with their own numbers, the answers (once, racing), revise,
// convert into one invoice (racing), expiry by the cron in the workspace's time zone, and that
// quotes never reach the dashboard's figures.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expireQuotes } from '../../src/modules/quotes/expiry';
import { addDays, todayIn, todayUtc } from '../../src/lib/time';
import { call, expectError } from '../helpers/api';
import { addMember, createClient, createUser } from '../helpers/factories';
import { runScheduled } from '../helpers/worker';
import { rowsById, workspaceOn } from '../scaling/helpers';

afterEach(() => vi.restoreAllMocks());

const lines = [
  { description: 'Design', quantity: 10, unit: 'HUR', unit_amount: 10_000, tax_rate: 19 },
  { description: 'Hosting', quantity: 1, unit_amount: 5_000, tax_rate: 7 },
];

async function studio(name = 'Owner') {
  const owner = await createUser(name);
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  return { owner, client };
}

async function newQuote(key: string, clientId: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/v1/quotes', { key, body: { client_id: clientId, line_items: lines, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

async function openQuote(key: string, clientId: string, body: Record<string, unknown> = {}) {
  const quote = await newQuote(key, clientId, body);
  const sent = await call('POST', `/v1/quotes/${quote.id}/send`, { key });
  expect(sent.status).toBe(200);
  return sent.body;
}

const eventsOf = async (key: string, id: string) =>
  ((await call('GET', '/api/events?limit=100', { key })).body.data as { type: string; actor: { type: string; name: string }; data: { object: { id: string } } }[])
    .filter((e) => e.data.object.id === id)
    .map((e) => e.type)
    .reverse();

describe('quote drafts', () => {
  it('computes lines and taxes as invoices do, numbers from QUO-000001, and is valid 30 days by default', async () => {
    const { owner, client } = await studio();
    const first = await newQuote(owner.key, client.id, { discount: { percent: 10 }, terms: 'Half up front.' });
    expect(first).toMatchObject({
      number: 'QUO-000001', status: 'draft', subtotal: 105_000, discount_total: 10_500, on_accept: 'none', terms: 'Half up front.',
      hosted_url: null, accepted: null, declined: null, invoice_id: null, revision_of: null,
      available_actions: ['update', 'delete', 'send', 'cancel'],
    });
    expect(first.valid_until).toBe(addDays(first.issue_date, 30));
    expect(first.total).toBe(first.subtotal - first.discount_total + first.tax);
    expect(first.tax_breakdown.map((g: { rate: number }) => g.rate)).toEqual([19, 7]);
    // The same lines on an invoice come to the same amounts.
    const invoice = (await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: lines, discount: { percent: 10 } } })).body;
    expect({ tax: first.tax, total: first.total, tax_breakdown: first.tax_breakdown }).toEqual({ tax: invoice.tax, total: invoice.total, tax_breakdown: invoice.tax_breakdown });
    expect(invoice.number).toBe('INV-000001'); // invoices keep their own sequence

    // Eight at once get eight consecutive numbers.
    const many = await Promise.all(Array.from({ length: 8 }, () => call('POST', '/api/workflow/quotes', { key: owner.key, body: { client_id: client.id, line_items: lines } })));
    expect(many.map((r) => r.body.number).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `QUO-${String(i + 2).padStart(6, '0')}`));
    const listed = await call('GET', '/api/workflow/quotes?limit=100', { key: owner.key });
    expect(listed.body.data).toHaveLength(9);
    expect(listed.body.data[0].line_items).toBeUndefined();
  });

  it('numbers with the workspace\'s quote_prefix, skipping numbers already picked by hand', async () => {
    const { owner, client } = await studio();
    expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { quote_prefix: 'OFF-' } })).body.quote_prefix).toBe('OFF-');
    await newQuote(owner.key, client.id, { number: 'OFF-000001' });
    expect((await newQuote(owner.key, client.id)).number).toBe('OFF-000002');
    expectError(await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: lines, number: 'OFF-000002' } }), 409, 'conflict');
  });

  it('edits and deletes drafts only, and refuses valid_until before issue_date', async () => {
    const { owner, client } = await studio();
    const draft = await newQuote(owner.key, client.id);
    const bad = await call('PATCH', `/v1/quotes/${draft.id}`, { key: owner.key, body: { valid_until: addDays(draft.issue_date, -1) } });
    expectError(bad, 422, 'validation_failed');
    const edited = await call('PATCH', `/v1/quotes/${draft.id}`, { key: owner.key, body: { line_items: [{ description: 'Less', quantity: 1, unit_amount: 1_000 }], on_accept: 'draft_invoice' } });
    expect(edited.body).toMatchObject({ subtotal: 1_000, total: 1_000, on_accept: 'draft_invoice' });
    await call('POST', `/v1/quotes/${draft.id}/send`, { key: owner.key });
    expectError(await call('PATCH', `/v1/quotes/${draft.id}`, { key: owner.key, body: { notes: 'x' } }), 409, 'invalid_state');
    expectError(await call('DELETE', `/v1/quotes/${draft.id}`, { key: owner.key }), 409, 'invalid_state');
    const other = await newQuote(owner.key, client.id);
    expect((await call('DELETE', `/v1/quotes/${other.id}`, { key: owner.key })).status).toBe(204);
    expect((await call('GET', `/v1/quotes/${other.id}`, { key: owner.key })).status).toBe(404);
  });

  it('is for members: a viewer reads but cannot create, and another workspace sees nothing', async () => {
    const { owner, client } = await studio();
    const viewer = await addMember(owner.key, 'viewer');
    const quote = await newQuote(owner.key, client.id);
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: viewer.key })).status).toBe(200);
    expectError(await call('POST', '/v1/quotes', { key: viewer.key, body: { client_id: client.id, line_items: lines } }), 403, 'forbidden');
    const stranger = await createUser('Stranger');
    expectError(await call('GET', `/v1/quotes/${quote.id}`, { key: stranger.key }), 404, 'not_found');
  });
});

describe('answers', () => {
  it('accepts once with who, which PO and how; a second answer is 409', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id);
    expect(quote).toMatchObject({ status: 'open', available_actions: ['accept', 'decline', 'cancel', 'revise'] });
    expect(quote.hosted_url).toMatch(/^https:\/\/workspace\.test\/q\/[A-Za-z0-9_-]{43}$/);
    const accepted = await call('POST', `/v1/quotes/${quote.id}/accept`, { key: owner.key, body: { name: 'Bill Lumbergh', po_number: 'PO-7781', method: 'phone' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', accepted: { name: 'Bill Lumbergh', po_number: 'PO-7781', method: 'phone' }, available_actions: ['convert'] });
    expectError(await call('POST', `/v1/quotes/${quote.id}/decline`, { key: owner.key, body: { reason: 'Changed our mind' } }), 409, 'invalid_state');
    expectError(await call('POST', `/v1/quotes/${quote.id}/accept`, { key: owner.key, body: { name: 'Someone else', method: 'email' } }), 409, 'invalid_state');
    expect(await eventsOf(owner.key, quote.id)).toEqual(['quote.created', 'quote.sent', 'quote.accepted']);
  });

  it('of an accept racing a decline, exactly one wins and writes one event', async () => {
    const { owner, client } = await studio();
    for (let round = 0; round < 3; round++) {
      const quote = await openQuote(owner.key, client.id);
      const [accept, decline] = await Promise.all([
        call('POST', `/v1/quotes/${quote.id}/accept`, { key: owner.key, body: { name: 'Ann', method: 'email' } }),
        call('POST', `/v1/quotes/${quote.id}/decline`, { key: owner.key, body: { reason: 'Too dear' } }),
      ]);
      expect([accept.status, decline.status].sort()).toEqual([200, 409]);
      const now = (await call('GET', `/v1/quotes/${quote.id}`, { key: owner.key })).body;
      expect(now.status).toBe(accept.status === 200 ? 'accepted' : 'declined');
      expect(Boolean(now.accepted) !== Boolean(now.declined)).toBe(true);
      const answers = (await eventsOf(owner.key, quote.id)).filter((t) => t === 'quote.accepted' || t === 'quote.declined');
      expect(answers).toEqual([accept.status === 200 ? 'quote.accepted' : 'quote.declined']);
    }
  });

  it('cancels a draft or an open quote, nothing else', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id);
    expect((await call('POST', `/v1/quotes/${quote.id}/cancel`, { key: owner.key })).body.status).toBe('canceled');
    expectError(await call('POST', `/v1/quotes/${quote.id}/cancel`, { key: owner.key }), 409, 'invalid_state');
    expectError(await call('POST', `/v1/quotes/${quote.id}/accept`, { key: owner.key, body: { name: 'Ann', method: 'email' } }), 409, 'invalid_state');
  });
});

describe('revise', () => {
  it('turns an open quote into a new draft with revision_of and cancels the original, in one step', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id, { notes: 'First offer' });
    const revised = await call('POST', `/v1/quotes/${quote.id}/revise`, { key: owner.key });
    expect(revised.status).toBe(201);
    expect(revised.body).toMatchObject({ status: 'draft', revision_of: quote.id, notes: 'First offer', total: quote.total, hosted_url: null, accepted: null });
    expect(revised.body.number).not.toBe(quote.number);
    expect(revised.body.line_items.map((l: { description: string }) => l.description)).toEqual(['Design', 'Hosting']);
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: owner.key })).body.status).toBe('canceled');
    expect(await eventsOf(owner.key, quote.id)).toEqual(['quote.created', 'quote.sent', 'quote.canceled']);
    // Twice at once: one revision, the other finds the original canceled.
    const again = await openQuote(owner.key, client.id);
    const both = await Promise.all([1, 2].map(() => call('POST', `/v1/quotes/${again.id}/revise`, { key: owner.key })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const revisions = (await call('GET', '/v1/quotes?limit=100', { key: owner.key })).body.data.filter((q: { revision_of: string | null }) => q.revision_of === again.id);
    expect(revisions).toHaveLength(1);
  });

  it('revises a declined quote and leaves it declined; a draft or an accepted one is 409', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id);
    await call('POST', `/v1/quotes/${quote.id}/decline`, { key: owner.key, body: { reason: 'Too dear' } });
    expect((await call('POST', `/v1/quotes/${quote.id}/revise`, { key: owner.key })).status).toBe(201);
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: owner.key })).body).toMatchObject({ status: 'declined', declined: { reason: 'Too dear' } });
    const draft = await newQuote(owner.key, client.id);
    expectError(await call('POST', `/v1/quotes/${draft.id}/revise`, { key: owner.key }), 409, 'invalid_state');
  });
});

describe('other quotes', () => {
  it('are left as they were when a quote is revised or converted, the revision itself and another workspace\'s included', async () => {
    const mine = await studio();
    const theirs = await studio('Other');
    const bystanders = [await openQuote(mine.owner.key, mine.client.id), await openQuote(theirs.owner.key, theirs.client.id)];
    const keyOf = [mine.owner.key, theirs.owner.key];
    const statuses = async () => Promise.all(bystanders.map(async (q, i) => (await call('GET', `/v1/quotes/${q.id}`, { key: keyOf[i]! })).body.status));
    const revised = await call('POST', `/v1/quotes/${(await openQuote(mine.owner.key, mine.client.id)).id}/revise`, { key: mine.owner.key });
    expect((await call('GET', `/v1/quotes/${revised.body.id}`, { key: mine.owner.key })).body.status).toBe('draft');
    expect(await statuses()).toEqual(['open', 'open']);
    const accepted = await openQuote(mine.owner.key, mine.client.id);
    await call('POST', `/v1/quotes/${accepted.id}/accept`, { key: mine.owner.key, body: { name: 'Bill', method: 'other' } });
    expect((await call('POST', `/v1/quotes/${accepted.id}/convert`, { key: mine.owner.key })).status).toBe(201);
    expect(await statuses()).toEqual(['open', 'open']);
    expect((await call('GET', `/v1/quotes/${revised.body.id}`, { key: mine.owner.key })).body).toMatchObject({ status: 'draft', invoice_id: null });
  });
});

describe('convert', () => {
  it('makes one draft invoice with quote_id and the PO, however many converts race', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id, { discount: { amount: 5_000 }, notes: 'Thanks' });
    await call('POST', `/v1/quotes/${quote.id}/accept`, { key: owner.key, body: { name: 'Bill', po_number: 'PO-1', method: 'email' } });
    const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', `/v1/quotes/${quote.id}/convert`, { key: owner.key })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const invoice = results.find((r) => r.status === 201)!.body;
    expect(invoice).toMatchObject({ status: 'draft', quote_id: quote.id, purchase_order: 'PO-1', client_id: client.id, total: quote.total, tax: quote.tax, discount_total: 5_000, notes: 'Thanks' });
    for (const lost of results.filter((r) => r.status === 409)) expect(lost.body.error.code).toBe('invalid_state');
    const rows = await env.DB.prepare('SELECT id FROM invoices WHERE quote_id = ?').bind(quote.id).all();
    expect(rows.results).toHaveLength(1);
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: owner.key })).body).toMatchObject({ status: 'converted', invoice_id: invoice.id, available_actions: [] });
    expect(await eventsOf(owner.key, quote.id)).toEqual(['quote.created', 'quote.sent', 'quote.accepted', 'quote.converted']);
  });

  it('gives the quote back, accepted with no invoice, when its draft invoice is deleted; it converts again', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id);
    await call('POST', `/v1/quotes/${quote.id}/accept`, { key: owner.key, body: { name: 'Bill', po_number: 'PO-9', method: 'email' } });
    const first = await call('POST', `/v1/quotes/${quote.id}/convert`, { key: owner.key });
    expect(first.status).toBe(201);
    expect((await call('DELETE', `/v1/invoices/${first.body.id}`, { key: owner.key })).status).toBe(204);
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: owner.key })).body).toMatchObject({
      status: 'accepted', invoice_id: null, accepted: { name: 'Bill', po_number: 'PO-9' }, available_actions: ['convert'],
    });
    const events = (await call('GET', '/api/events?type=quote.updated', { key: owner.key })).body.data;
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ object: { id: quote.id, status: 'accepted', invoice_id: null }, previous_attributes: { status: 'converted', invoice_id: first.body.id } });

    const again = await call('POST', `/v1/quotes/${quote.id}/convert`, { key: owner.key });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: 'draft', quote_id: quote.id, purchase_order: 'PO-9' });
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: owner.key })).body).toMatchObject({ status: 'converted', invoice_id: again.body.id });
    expect(await eventsOf(owner.key, quote.id)).toEqual(['quote.created', 'quote.sent', 'quote.accepted', 'quote.converted', 'quote.updated', 'quote.converted']);
  });

  it('refuses a quote not accepted', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id);
    expectError(await call('POST', `/v1/quotes/${quote.id}/convert`, { key: owner.key }), 409, 'invalid_state');
  });

  it('converts at once on acceptance with on_accept draft_invoice, and sends with send_invoice', async () => {
    const { owner, client } = await studio();
    const drafted = await openQuote(owner.key, client.id, { on_accept: 'draft_invoice' });
    const a = await call('POST', `/v1/quotes/${drafted.id}/accept`, { key: owner.key, body: { name: 'Bill', method: 'in_person' } });
    expect(a.body.status).toBe('converted');
    expect((await call('GET', `/v1/invoices/${a.body.invoice_id}`, { key: owner.key })).body.status).toBe('draft');
    const sent = await openQuote(owner.key, client.id, { on_accept: 'send_invoice' });
    const b = await call('POST', `/v1/quotes/${sent.id}/accept`, { key: owner.key, body: { name: 'Bill', method: 'other' } });
    expect(b.body.status).toBe('converted');
    expect((await call('GET', `/v1/invoices/${b.body.invoice_id}`, { key: owner.key })).body).toMatchObject({ status: 'open', quote_id: sent.id });
  });
});

describe('expiry', () => {
  it('expires an open quote once valid_until has passed in the workspace\'s own time zone', async () => {
    // At 12:00 UTC it is 01:00 of the same day in Pago Pago (UTC−11) and 02:00 of the next in Kiritimati (UTC+14).
    const day = todayUtc();
    const now = Date.parse(`${day}T12:00:00Z`);
    const quoteIn = async (timeZone: string) => {
      const { owner, client } = await studio(timeZone);
      expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { time_zone: timeZone } })).status).toBe(200);
      return { owner, quote: await openQuote(owner.key, client.id, { issue_date: addDays(day, -10), valid_until: day }) };
    };
    const east = await quoteIn('Pacific/Kiritimati');
    const west = await quoteIn('Pacific/Pago_Pago');
    await expireQuotes(env, now);
    await expireQuotes(env, now);
    expect((await call('GET', `/v1/quotes/${east.quote.id}`, { key: east.owner.key })).body).toMatchObject({ status: 'expired', available_actions: ['revise'] });
    expect((await call('GET', `/v1/quotes/${west.quote.id}`, { key: west.owner.key })).body.status).toBe('open');
    expect(await eventsOf(east.owner.key, east.quote.id)).toEqual(['quote.created', 'quote.sent', 'quote.expired']);
    expect(todayIn('Pacific/Kiritimati', new Date(now)) > day && todayIn('Pacific/Pago_Pago', new Date(now)) === day).toBe(true);
  });

  it('runs in the cron: a quote sent already past its validity expires on the next run', async () => {
    const { owner, client } = await studio();
    const quote = await openQuote(owner.key, client.id, { issue_date: '2024-01-01', valid_until: '2024-01-31' });
    expect(quote.status).toBe('open');
    await runScheduled();
    const after = (await call('GET', `/v1/quotes/${quote.id}`, { key: owner.key })).body;
    expect(after.status).toBe('expired');
    expectError(await call('POST', `/v1/quotes/${quote.id}/accept`, { key: owner.key, body: { name: 'Late', method: 'email' } }), 409, 'invalid_state');
  });
});

describe('the dashboard', () => {
  it('counts no quote, whatever its state', async () => {
    const { owner, client } = await studio();
    const before = (await call('GET', '/api/workflow/dashboard', { key: owner.key })).body;
    const accepted = await openQuote(owner.key, client.id);
    await call('POST', `/v1/quotes/${accepted.id}/accept`, { key: owner.key, body: { name: 'Bill', method: 'email' } });
    await openQuote(owner.key, client.id);
    await newQuote(owner.key, client.id);
    const after = (await call('GET', '/api/workflow/dashboard', { key: owner.key })).body;
    expect(after.totals).toEqual(before.totals);
    expect(after.counts).toEqual(before.counts);
    expect(after.by_currency).toEqual(before.by_currency);
  });
});

describe('quotes of a workspace on the second database', () => {
  it('are numbered from the copy\'s own sequence, which a settings change does not reset', { timeout: 120_000 }, async () => {
    const placed = await workspaceOn('DB_WORKSPACES_2');
    const client = await createClient(placed.key);
    expect((await newQuote(placed.key, client.id)).number).toBe('QUO-000001');
    const settings = await call('PATCH', '/api/workspace', { key: placed.key, body: { quote_prefix: 'ANG-' } });
    expect(settings.body.quote_prefix).toBe('ANG-');
    const second = await newQuote(placed.key, client.id);
    expect(second.number).toBe('ANG-000002');
    expect(await rowsById('quotes', second.id)).toEqual({ DB: 0, DB_WORKSPACES_2: 1 });
  });
});
