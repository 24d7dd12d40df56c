// §20 "Numbering without gaps", for invoices: the workspace's `number_at`. With `send`, a draft has
// no number (null everywhere it shows: both listings, its events, its webhooks, its page and PDF)
// until its send draws the next one, so numbers follow the order of sending, also when sends race;
// with `create` (the default), deleting the draft that holds the newest number gives it back.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { issueDueInvoices } from '../../src/modules/recurring-invoices/issue';
import { call, errorPaths, expectError, open } from '../helpers/api';
import { addMember, createClient, createInvoice, createUser, oneLine } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';
import { capturedQueue, createEndpoint, receiver } from '../webhooks/helpers';

afterEach(() => vi.restoreAllMocks());

async function studio(numberAt?: 'create' | 'send', locale = 'en-US') {
  const owner = await createUser('Owner');
  if (numberAt) {
    const set = await call('PATCH', '/api/workspace', { key: owner.key, body: { number_at: numberAt, locale } });
    expect(set.status).toBe(200);
    expect(set.body.number_at).toBe(numberAt);
  }
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example' });
  return { owner, client };
}

const send = (key: string, id: string, base = '/v1') => call('POST', `${base}/invoices/${id}/send`, { key, body: { email: false } });
const remove = (key: string, id: string) => call('DELETE', `/v1/invoices/${id}`, { key });

/** The events of one invoice, oldest first. */
async function eventsOf(key: string, id: string) {
  const events = (await call('GET', '/api/events?limit=100', { key })).body.data as { type: string; summary?: string; data: { object: { id: string; number: string | null } } }[];
  return events.filter((e) => e.data.object.id === id).reverse();
}

describe('the number_at setting', () => {
  it('is "create" by default, set by an admin to "send", and a 422 naming it for anything else', async () => {
    const owner = await createUser();
    expect((await call('GET', '/api/workspace', { key: owner.key })).body.number_at).toBe('create');
    const wrong = await call('PATCH', '/api/workspace', { key: owner.key, body: { number_at: 'later' } });
    expectError(wrong, 422, 'validation_failed');
    expect(errorPaths(wrong)).toEqual(['number_at']);
    const member = await addMember(owner.key, 'member');
    expectError(await call('PATCH', '/api/workspace', { key: member.key, body: { number_at: 'send' } }), 403, 'forbidden');
    expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { number_at: 'send' } })).body.number_at).toBe('send');
    expect((await call('GET', '/api/workspace', { key: member.key })).body.number_at).toBe('send');
  });
});

describe('numbered at send', () => {
  it('shows a draft with number null on both listings and in its events, and gives it the next number when sent', async () => {
    const { owner, client } = await studio('send');
    const draft = await createInvoice(owner.key, { client_id: client.id });
    expect(draft.number).toBeNull();
    for (const base of ['/v1', '/api/workflow']) {
      expect((await call('GET', `${base}/invoices/${draft.id}`, { key: owner.key })).body.number).toBeNull();
      const listed = (await call('GET', `${base}/invoices?status=draft`, { key: owner.key })).body.data;
      expect(listed.map((i: { number: string | null }) => i.number)).toEqual([null]);
    }
    // An edit keeps it unnumbered; a number given by hand is kept, and never drawn from the sequence.
    expect((await call('PATCH', `/v1/invoices/${draft.id}`, { key: owner.key, body: { notes: 'Thanks' } })).body.number).toBeNull();
    const handPicked = await createInvoice(owner.key, { client_id: client.id, number: 'SPECIAL-7' });
    expect(handPicked.number).toBe('SPECIAL-7');

    const sent = await send(owner.key, draft.id, '/api/workflow');
    expect(sent.status).toBe(200);
    expect(sent.body.number).toBe('INV-000001');
    expect((await call('GET', `/v1/invoices/${draft.id}`, { key: owner.key })).body.number).toBe('INV-000001');
    expect((await send(owner.key, handPicked.id)).body.number).toBe('SPECIAL-7');

    const events = await eventsOf(owner.key, draft.id);
    expect(events.map((e) => [e.type, e.data.object.number])).toEqual([
      ['invoice.created', null], ['invoice.updated', null], ['invoice.sent', 'INV-000001'],
    ]);
  });

  it('numbers in the order of sending, not of creating, and steps over a number taken by hand', async () => {
    const { owner, client } = await studio('send');
    const [first, second, third] = [
      await createInvoice(owner.key, { client_id: client.id }),
      await createInvoice(owner.key, { client_id: client.id }),
      await createInvoice(owner.key, { client_id: client.id }),
    ];
    expect((await send(owner.key, third.id)).body.number).toBe('INV-000001');
    expect((await send(owner.key, first.id, '/api/workflow')).body.number).toBe('INV-000002');
    // The next number of the sequence, taken by hand on another draft: the send draws the one after it.
    await createInvoice(owner.key, { client_id: client.id, number: 'INV-000003' });
    expect((await send(owner.key, second.id)).body.number).toBe('INV-000004');
    // A deleted unnumbered draft takes nothing with it.
    const thrownAway = await createInvoice(owner.key, { client_id: client.id });
    expect((await remove(owner.key, thrownAway.id)).status).toBe(204);
    const last = await createInvoice(owner.key, { client_id: client.id });
    expect((await send(owner.key, last.id)).body.number).toBe('INV-000005');
  });

  it('gives 5 drafts sent at once 5 distinct consecutive numbers', async () => {
    const { owner, client } = await studio('send');
    const drafts = [];
    for (let i = 0; i < 5; i++) drafts.push(await createInvoice(owner.key, { client_id: client.id }));
    const sent = await Promise.all(drafts.map((d, i) => send(owner.key, d.id, i % 2 ? '/api/workflow' : '/v1')));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(sent.map((r) => r.body.number).sort()).toEqual(['INV-000001', 'INV-000002', 'INV-000003', 'INV-000004', 'INV-000005']);
    // Each invoice.sent event carries the number its send drew; the counter stands at the last one.
    const events = (await call('GET', '/api/events?type=invoice.sent&limit=10', { key: owner.key })).body.data as { data: { object: { id: string; number: string } } }[];
    const drawn = new Map(sent.map((r) => [r.body.id, r.body.number]));
    expect(events).toHaveLength(5);
    for (const e of events) expect(e.data.object.number).toBe(drawn.get(e.data.object.id));
    const next = await createInvoice(owner.key, { client_id: client.id });
    expect((await send(owner.key, next.id)).body.number).toBe('INV-000006');
  });

  it('delivers webhooks with number null before the send and the drawn number from the send on', async () => {
    const { owner, client } = await studio('send');
    await createEndpoint(owner.key, { events: ['invoice.created', 'invoice.sent'] });
    const queue = capturedQueue();
    const received = receiver();
    const draft = await createInvoice(owner.key, { client_id: client.id });
    await send(owner.key, draft.id);
    await queue.drain();
    const payloads = received.map((r) => JSON.parse(r.body) as { type: string; data: { object: { number: string | null } } });
    expect(payloads.map((p) => [p.type, p.data.object.number]).sort()).toEqual([['invoice.created', null], ['invoice.sent', 'INV-000001']]);
  });

  it('prints DRAFT in the document\'s language where the number goes, on the preview and the PDF', async () => {
    const { owner, client } = await studio('send', 'de-DE');
    const draft = await createInvoice(owner.key, { client_id: client.id });
    const preview = (await call('GET', `/v1/invoices/${draft.id}/preview`, { key: owner.key })).body as string;
    expect(preview).toContain('Rechnung ENTWURF');
    const pdf = (await pdfText(await (await open(`https://workspace.test/v1/invoices/${draft.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } })).arrayBuffer())).flat().join('\n');
    expect(pdf).toContain('Rechnung ENTWURF');
    for (const text of [preview, pdf]) expect(text).not.toContain(draft.id);
    const sent = (await send(owner.key, draft.id)).body;
    expect(await (await open(sent.hosted_url)).text()).toContain('Rechnung INV-000001');
  });

  it('leaves a recurring invoice\'s draft unnumbered until it is sent, and numbers one sent by auto_send', async () => {
    const { owner, client } = await studio('send');
    const today = new Date().toISOString().slice(0, 10);
    const schedules = [];
    for (const autoSend of [false, true]) {
      const rin = await call('POST', '/v1/recurring-invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine, interval: 'month', start_date: today, auto_send: autoSend } });
      expect(rin.status).toBe(201);
      schedules.push(rin.body.id);
    }
    await env.DB.prepare(`UPDATE recurring_invoices SET next_issue_at = ? WHERE id IN (?, ?)`).bind(new Date(Date.now() - 60_000).toISOString(), ...schedules).run();
    await issueDueInvoices(env);
    const issued = async (id: string) => (await call('GET', `/v1/invoices?recurring_invoice_id=${id}`, { key: owner.key })).body.data[0];
    const [drafted, autoSent] = [await issued(schedules[0]), await issued(schedules[1])];
    expect({ status: drafted.status, number: drafted.number }).toEqual({ status: 'draft', number: null });
    expect({ status: autoSent.status, number: autoSent.number }).toEqual({ status: 'open', number: 'INV-000001' });
    expect((await eventsOf(owner.key, drafted.id)).map((e) => e.data.object.number)).toEqual([null]);
    expect((await send(owner.key, drafted.id)).body.number).toBe('INV-000002');
  });
});

describe('numbered at create: a deleted draft gives its number back', () => {
  it('when it holds the newest number, so the next draft takes it; not when later numbers are taken', async () => {
    const { owner, client } = await studio();
    const numbers = async () => ((await call('GET', '/api/workflow/invoices', { key: owner.key })).body.data as { number: string }[]).map((i) => i.number).sort();
    const one = await createInvoice(owner.key, { client_id: client.id });
    const two = await createInvoice(owner.key, { client_id: client.id });
    const three = await createInvoice(owner.key, { client_id: client.id });
    // The last drafts thrown away, newest first: no gap.
    expect((await remove(owner.key, three.id)).status).toBe(204);
    expect((await call('DELETE', `/api/workflow/invoices/${two.id}`, { key: owner.key })).status).toBe(204);
    expect((await createInvoice(owner.key, { client_id: client.id })).number).toBe('INV-000002');
    // A sent invoice keeps its number; a draft deleted under a later number leaves its gap.
    await send(owner.key, one.id);
    const four = await createInvoice(owner.key, { client_id: client.id });
    expect(four.number).toBe('INV-000003');
    expect((await createInvoice(owner.key, { client_id: client.id })).number).toBe('INV-000004');
    expect((await remove(owner.key, four.id)).status).toBe(204);
    expect((await createInvoice(owner.key, { client_id: client.id })).number).toBe('INV-000005');
    expect(await numbers()).toEqual(['INV-000001', 'INV-000002', 'INV-000004', 'INV-000005']);
    // A hand-picked number is no number of the counter's: deleting it gives nothing back.
    const handPicked = await createInvoice(owner.key, { client_id: client.id, number: 'SPECIAL-1' });
    expect((await remove(owner.key, handPicked.id)).status).toBe(204);
    expect((await createInvoice(owner.key, { client_id: client.id })).number).toBe('INV-000006');
  });

  it('never hands out a number twice while drafts are created and deleted at once, and reuses a deleted newest number', async () => {
    const { owner, client } = await studio();
    let newest = await createInvoice(owner.key, { client_id: client.id });
    for (let round = 0; round < 4; round++) {
      const [deleted, ...created] = await Promise.all([
        remove(owner.key, newest.id),
        call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine } }),
        call('POST', '/api/workflow/invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine } }),
      ]);
      expect([deleted.status, ...created.map((r) => r.status)]).toEqual([204, 201, 201]);
      newest = created.map((r) => r.body).sort((a, b) => (a.number < b.number ? -1 : 1))[1];
    }
    const all = ((await call('GET', '/v1/invoices?limit=100', { key: owner.key })).body.data as { number: string }[]).map((i) => i.number);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(5);
    // The newest thrown away, its number is the next one again.
    expect((await remove(owner.key, newest.id)).status).toBe(204);
    expect((await createInvoice(owner.key, { client_id: client.id })).number).toBe(newest.number);
  });
});
