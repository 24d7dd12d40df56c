// §20 "Numbering without gaps", for quotes (their own sequence, §18): with `number_at: "send"` a
// draft quote has number null until its send draws the next quote number, and what it turns into
// (a revision, a converted invoice) follows the same rule; with `create`, deleting the draft that
// holds the newest quote number gives it back.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, open } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';

afterEach(() => vi.restoreAllMocks());

const lines = [{ description: 'Design', quantity: 10, unit_amount: 10_000, tax_rate: 19 }];

async function studio(numberAt?: 'send', locale = 'en-US') {
  const owner = await createUser('Owner');
  if (numberAt) expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { number_at: numberAt, locale } })).status).toBe(200);
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  return { owner, client };
}

async function newQuote(key: string, clientId: string, body: Record<string, unknown> = {}, base = '/v1') {
  const res = await call('POST', `${base}/quotes`, { key, body: { client_id: clientId, line_items: lines, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

const send = (key: string, id: string, base = '/v1') => call('POST', `${base}/quotes/${id}/send`, { key, body: { email: false } });

describe('quotes numbered at send', () => {
  it('have number null on both listings and in their events until sent, then the next quote number', async () => {
    const { owner, client } = await studio('send');
    const draft = await newQuote(owner.key, client.id, {}, '/api/workflow');
    expect(draft.number).toBeNull();
    for (const base of ['/v1', '/api/workflow']) {
      expect((await call('GET', `${base}/quotes/${draft.id}`, { key: owner.key })).body.number).toBeNull();
      expect((await call('GET', `${base}/quotes`, { key: owner.key })).body.data.map((q: { number: string | null }) => q.number)).toEqual([null]);
    }
    expect((await newQuote(owner.key, client.id, { number: 'Q-SPECIAL' })).number).toBe('Q-SPECIAL');
    const sent = await send(owner.key, draft.id);
    expect(sent.status).toBe(200);
    expect(sent.body.number).toBe('QUO-000001');
    const events = ((await call('GET', '/api/events?limit=100', { key: owner.key })).body.data as { type: string; data: { object: { id: string; number: string | null } } }[])
      .filter((e) => e.data.object.id === draft.id).reverse();
    expect(events.map((e) => [e.type, e.data.object.number])).toEqual([['quote.created', null], ['quote.sent', 'QUO-000001']]);
  });

  it('gives 5 quotes sent at once 5 distinct consecutive numbers, on both listings', async () => {
    const { owner, client } = await studio('send');
    const drafts = [];
    for (let i = 0; i < 5; i++) drafts.push(await newQuote(owner.key, client.id));
    const sent = await Promise.all(drafts.map((q, i) => send(owner.key, q.id, i % 2 ? '/api/workflow' : '/v1')));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(sent.map((r) => r.body.number).sort()).toEqual(['QUO-000001', 'QUO-000002', 'QUO-000003', 'QUO-000004', 'QUO-000005']);
  });

  it('prints DRAFT in the quote\'s language where the number goes', async () => {
    const { owner, client } = await studio('send', 'de-DE');
    const draft = await newQuote(owner.key, client.id);
    const res = await open(`https://workspace.test/v1/quotes/${draft.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(res.status).toBe(200);
    const pdf = (await pdfText(await res.arrayBuffer())).flat().join('\n');
    expect(pdf).toContain('Angebot ENTWURF');
    expect(pdf).not.toContain(draft.id);
  });

  it('leave a revision and a converted invoice unnumbered until they are sent', async () => {
    const { owner, client } = await studio('send');
    const original = (await send(owner.key, (await newQuote(owner.key, client.id)).id)).body;
    const revision = await call('POST', `/v1/quotes/${original.id}/revise`, { key: owner.key });
    expect(revision.status).toBe(201);
    expect(revision.body.number).toBeNull();
    expect((await send(owner.key, revision.body.id)).body.number).toBe('QUO-000002');
    expect((await call('POST', `/v1/quotes/${revision.body.id}/accept`, { key: owner.key, body: { name: 'Pat Buyer', method: 'email' } })).status).toBe(200);
    const converted = await call('POST', `/v1/quotes/${revision.body.id}/convert`, { key: owner.key });
    expect(converted.status).toBe(201);
    expect({ status: converted.body.status, number: converted.body.number }).toEqual({ status: 'draft', number: null });
    const invoice = (await call('GET', `/api/workflow/invoices/${converted.body.id}`, { key: owner.key })).body;
    expect({ quote_id: invoice.quote_id, number: invoice.number }).toEqual({ quote_id: revision.body.id, number: null });
    expect((await call('POST', `/v1/invoices/${invoice.id}/send`, { key: owner.key, body: { email: false } })).body.number).toBe('INV-000001');
  });
});

describe('quotes numbered at create', () => {
  it('give the newest quote number back when its draft is deleted, on their own sequence', async () => {
    const { owner, client } = await studio();
    await newQuote(owner.key, client.id);
    const second = await newQuote(owner.key, client.id);
    expect(second.number).toBe('QUO-000002');
    expect((await call('DELETE', `/api/workflow/quotes/${second.id}`, { key: owner.key })).status).toBe(204);
    expect((await newQuote(owner.key, client.id)).number).toBe('QUO-000002');
    // An invoice's delete leaves the quote sequence alone, and the other way round.
    const invoice = (await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: lines } })).body;
    expect((await call('DELETE', `/v1/invoices/${invoice.id}`, { key: owner.key })).status).toBe(204);
    expect((await newQuote(owner.key, client.id)).number).toBe('QUO-000003');
    expect((await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: lines } })).body.number).toBe('INV-000001');
  });
});
