// Accepting a proposal (§24): once per gig, even when two are accepted at the same time; the gig
// closes, the other proposals are declined and their senders told; and the sender's workspace gets a
// client made from the poster's issuer, a project named after the gig and a draft quote from the
// proposal, linked on it. The poster learns the sender's business name and email from then on.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { capturedEmails, deliverLogged, eventsOf, postGig, sendProposal } from './helpers';

afterEach(() => vi.restoreAllMocks());

const issuer = {
  legal_name: 'Bäckerei Brot & Co. GmbH', email: 'rechnungen@brot.example', address: { line1: 'Hauptstraße 5', city: 'Berlin', postal_code: '10115', country: 'DE' },
  vat_id: 'DE123456789', peppol_id: '9930:DE123456789',
};

/** A poster whose workspace has a complete issuer, in German. */
async function bakery(): Promise<TestUser> {
  const poster = await createUser('Poppy Poster');
  const res = await call('PATCH', '/api/workspace', { key: poster.key, body: { locale: 'de-DE', issuer } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return poster;
}

describe('accepting a proposal', () => {
  it('makes a client from the poster\'s issuer, a project after the gig and a draft quote in the sender\'s workspace, and links them', async () => {
    const poster = await bakery();
    const sender = await createUser('Sam Sender');
    await call('PATCH', '/api/workspace', { key: sender.key, body: { issuer: { legal_name: 'Sam Design Ltd', email: 'hello@sam.example' } } });
    const gig = await postGig(poster.key, { title: 'Logo for a bakery', budget_max: 120_000 });
    const sent = await sendProposal(sender.key, gig.id, { rate: { type: 'fixed', amount: 90_000 }, available_from: '2030-03-01' });

    const accepted = await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ id: sent.id, status: 'accepted', from: { workspace: 'Sam Sender', name: 'Sam Sender', business_name: 'Sam Design Ltd', email: 'hello@sam.example' } });
    const { client_id, project_id, quote_id } = accepted.body;

    const client = await call('GET', `/v1/clients/${client_id}`, { key: sender.key });
    expect(client.status).toBe(200);
    expect(client.body).toMatchObject({
      name: 'Bäckerei Brot & Co. GmbH', email: 'rechnungen@brot.example', vat_id: 'DE123456789', peppol_id: '9930:DE123456789', currency: 'EUR', locale: 'de-DE',
      address: { line1: 'Hauptstraße 5', city: 'Berlin', postal_code: '10115', country: 'DE' },
    });
    const project = await call('GET', `/v1/projects/${project_id}`, { key: sender.key });
    expect(project.body).toMatchObject({ name: 'Logo for a bakery', client_id, currency: 'EUR', budget: 90_000, hourly_rate: null, start_date: '2030-03-01', status: 'active' });
    const quote = await call('GET', `/v1/quotes/${quote_id}`, { key: sender.key });
    expect(quote.body).toMatchObject({ status: 'draft', client_id, project_id, currency: 'EUR', subtotal: 90_000 });
    expect(quote.body.line_items).toHaveLength(1);
    expect(quote.body.line_items[0]).toMatchObject({ description: 'Logo for a bakery', quantity: 1, unit_amount: 90_000, amount: 90_000 });
    expect(quote.body.number).toMatch(/^QUO-/);

    // Each record has its event in the sender's workspace, and so has the accept.
    for (const [type, id] of [['client.created', client_id], ['project.created', project_id], ['quote.created', quote_id], ['proposal.accepted', sent.id]]) {
      const found = (await eventsOf(sender.key, type)).find((e) => e.data.object.id === id);
      expect(found, type).toBeDefined();
      expect(found!.actor).toEqual({ type: 'system', id: null, name: 'proposals' });
    }
    const [posterEvent] = await eventsOf(poster.key, 'proposal.accepted');
    expect(posterEvent!.data.object).toEqual(accepted.body);
    expect(posterEvent!.actor).toMatchObject({ type: 'user', id: poster.id });

    // The poster reads the sender's business name and email from now on; the gig is closed.
    expect((await call('GET', `/v1/gigs/${gig.id}/proposals`, { key: poster.key })).body.data[0]).toEqual(accepted.body);
    expect((await call('GET', `/v1/proposals/${sent.id}`, { key: sender.key })).body).toEqual(accepted.body);
    expect((await call('GET', `/v1/gigs/${gig.id}`)).body).toMatchObject({ status: 'closed', proposals_count: 1 });
    // The poster's records are the poster's: the sender's new client is no record of theirs.
    expectError(await call('GET', `/v1/clients/${client_id}`, { key: poster.key }), 404, 'not_found');
    // Once.
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key }), 409, 'invalid_state');
    expect((await call('GET', '/v1/clients?limit=100', { key: sender.key })).body.data).toHaveLength(1);
  });

  it('prices an hourly proposal as its estimate at its rate, and a proposal without a rate at the gig\'s budget_max', async () => {
    const poster = await bakery();
    const [hourly, silent] = [await createUser(), await createUser()];
    const gig = await postGig(poster.key, { budget_type: 'hourly', budget_min: 6_000, budget_max: 9_000 });
    const byHour = await sendProposal(hourly.key, gig.id, { rate: { type: 'hourly', amount: 8_500, currency: 'EUR' }, estimate_hours: 12.5 });
    const accepted = (await call('POST', `/v1/gigs/${gig.id}/proposals/${byHour.id}/accept`, { key: poster.key })).body;
    expect((await call('GET', `/v1/projects/${accepted.project_id}`, { key: hourly.key })).body).toMatchObject({ budget: 9_000, hourly_rate: 8_500 });
    const quote = (await call('GET', `/v1/quotes/${accepted.quote_id}`, { key: hourly.key })).body;
    expect(quote.line_items[0]).toMatchObject({ quantity: 12.5, unit: 'HUR', unit_amount: 8_500, amount: 106_250 });

    const fixedGig = await postGig(poster.key, { budget_max: 150_000 });
    const noRate = await sendProposal(silent.key, fixedGig.id, { rate: null, estimate_hours: null });
    const plain = (await call('POST', `/v1/gigs/${fixedGig.id}/proposals/${noRate.id}/accept`, { key: poster.key })).body;
    expect((await call('GET', `/v1/projects/${plain.project_id}`, { key: silent.key })).body).toMatchObject({ budget: 150_000, hourly_rate: null });
    expect((await call('GET', `/v1/quotes/${plain.quote_id}`, { key: silent.key })).body.line_items[0]).toMatchObject({ quantity: 1, unit_amount: 150_000 });
  });

  it('declines the gig\'s other submitted proposals and tells each sender, by event and in its own language by email', async () => {
    const poster = await bakery();
    const [chosen, other, gone] = [await createUser('Chosen'), await createUser('Other'), await createUser('Gone')];
    await call('PATCH', '/api/workspace', { key: other.key, body: { locale: 'es-ES' } });
    const gig = await postGig(poster.key, { title: 'Logo para una panadería' });
    const [a, b, c] = [await sendProposal(chosen.key, gig.id), await sendProposal(other.key, gig.id), await sendProposal(gone.key, gig.id)];
    await call('POST', `/v1/proposals/${c.id}/withdraw`, { key: gone.key });
    const queued = capturedEmails();
    expect((await call('POST', `/v1/gigs/${gig.id}/proposals/${a.id}/accept`, { key: poster.key })).status).toBe(200);

    const declined = (await call('GET', `/v1/proposals/${b.id}`, { key: other.key })).body;
    expect(declined).toMatchObject({ status: 'declined', decline_reason: 'Another proposal was accepted for this gig.', client_id: null });
    expect((await call('GET', `/v1/proposals/${c.id}`, { key: gone.key })).body.status).toBe('withdrawn');
    const [told] = await eventsOf(other.key, 'proposal.declined');
    expect(told!.data.object).toEqual(declined);
    expect(await eventsOf(gone.key, 'proposal.declined')).toEqual([]);
    expect((await call('GET', '/v1/clients', { key: other.key })).body.data).toEqual([]);

    const emails = await deliverLogged(queued, [chosen.email, other.email, gone.email]);
    expect(emails.map((e) => e.to[0]).sort()).toEqual([chosen.email, other.email].sort());
    const toOther = emails.find((e) => e.to[0] === other.email)!;
    expect(toOther.subject).toBe('Su propuesta para «Logo para una panadería» ha sido rechazada');
    const toChosen = emails.find((e) => e.to[0] === chosen.email)!;
    expect(toChosen.subject).toBe('Your proposal for "Logo para una panadería" was accepted');
    expect(toChosen.text).toContain('Bäckerei Brot & Co. GmbH accepted your proposal');
    expect(toChosen.text).toContain(`GET /v1/proposals/${a.id}`);
  });

  it('accepts one of two proposals accepted at the same time; the other is a 409 and makes nothing', async () => {
    const poster = await bakery();
    const [first, second] = [await createUser(), await createUser()];
    const gig = await postGig(poster.key);
    const [a, b] = [await sendProposal(first.key, gig.id), await sendProposal(second.key, gig.id)];
    const answers = await Promise.all([a, b].map((p) => call('POST', `/v1/gigs/${gig.id}/proposals/${p.id}/accept`, { key: poster.key })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = answers.find((r) => r.status === 409)!;
    expectError(loser, 409, 'invalid_state');
    const winner = answers.find((r) => r.status === 200)!.body;
    const [winnerKey, loserKey] = winner.id === a.id ? [first.key, second.key] : [second.key, first.key];
    expect((await call('GET', '/v1/clients', { key: winnerKey })).body.data).toHaveLength(1);
    expect((await call('GET', '/v1/clients', { key: loserKey })).body.data).toEqual([]);
    expect((await call('GET', '/v1/proposals', { key: loserKey })).body.data[0].status).toBe('declined');
    expect((await eventsOf(poster.key, 'proposal.accepted'))).toHaveLength(1);
  });

  it('refuses a closed gig, a withdrawn or declined proposal, the sender, and a proposal under another gig', async () => {
    const poster = await bakery();
    const sender = await createUser();
    const gig = await postGig(poster.key);
    const sent = await sendProposal(sender.key, gig.id);
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: sender.key }), 404, 'not_found');
    const otherGig = await postGig(poster.key);
    expectError(await call('POST', `/v1/gigs/${otherGig.id}/proposals/${sent.id}/accept`, { key: poster.key }), 404, 'not_found');
    await call('PATCH', `/v1/gigs/${gig.id}`, { key: poster.key, body: { status: 'closed' } });
    expect(expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key }), 409, 'invalid_state').message).toMatch(/closed/);
    expect((await call('PATCH', `/v1/gigs/${gig.id}`, { key: poster.key, body: { status: 'open' } })).status).toBe(200);
    expect((await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/decline`, { key: poster.key, body: {} })).status).toBe(200);
    expect(expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key }), 409, 'invalid_state').message).not.toMatch(/closed/);
    expect((await call('GET', '/v1/clients', { key: sender.key })).body.data).toEqual([]);
  });

  it('numbers the quote from the sender\'s sequence, or not at all while the sender numbers at send', async () => {
    const poster = await bakery();
    const [numbered, atSend] = [await createUser(), await createUser()];
    await call('PATCH', '/api/workspace', { key: numbered.key, body: { quote_prefix: 'ANG-' } });
    await call('PATCH', '/api/workspace', { key: atSend.key, body: { number_at: 'send' } });
    // A number taken by hand where the sequence would go next: the accept's quote takes the one after it.
    const client = (await call('POST', '/v1/clients', { key: numbered.key, body: { name: 'Walk-in' } })).body;
    await call('POST', '/v1/quotes', { key: numbered.key, body: { client_id: client.id, number: 'ANG-000001', line_items: [{ description: 'Design', quantity: 1, unit_amount: 100 }] } });
    const [g1, g2] = [await postGig(poster.key), await postGig(poster.key)];
    const p1 = await sendProposal(numbered.key, g1.id);
    const p2 = await sendProposal(atSend.key, g2.id);
    const a1 = (await call('POST', `/v1/gigs/${g1.id}/proposals/${p1.id}/accept`, { key: poster.key })).body;
    const a2 = (await call('POST', `/v1/gigs/${g2.id}/proposals/${p2.id}/accept`, { key: poster.key })).body;
    expect((await call('GET', `/v1/quotes/${a1.quote_id}`, { key: numbered.key })).body.number).toBe('ANG-000002');
    expect((await call('GET', `/v1/quotes/${a2.quote_id}`, { key: atSend.key })).body.number).toBeNull();
  });
});
