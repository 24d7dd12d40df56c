// Proposals on the gig board (§24): sending one, the rules and limits on it, who may read and answer
// it, and what each side is told and may see. The accept has a file of its own (accept.test.ts).
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createUser, workspaceWithEveryRole } from '../helpers/factories';
import { runScheduled } from '../helpers/worker';
import { capturedEmails, deliverLogged, eventsOf, postGig, proposalBody, sendProposal } from './helpers';

afterEach(() => vi.restoreAllMocks());

describe('sending a proposal', () => {
  it('reaches the poster, who reads it beside the sender, and the board counts it without saying who sent it', async () => {
    const [poster, sender] = [await createUser('Poppy Poster'), await createUser('Sam Sender')];
    const gig = await postGig(poster.key);
    expect(gig.proposals_count).toBe(0);
    const sent = await sendProposal(sender.key, gig.id, { available_from: '2030-01-15' });
    expect(sent).toMatchObject({
      gig_id: gig.id, status: 'submitted', message: 'I designed logos for two bakeries in Berlin.', rate: { type: 'fixed', amount: 90_000, currency: 'EUR' },
      estimate_hours: 12, available_from: '2030-01-15', links: ['https://portfolio.example.com/bakeries'],
      from: { workspace: 'Sam Sender', name: 'Sam Sender', business_name: null, email: null },
      decline_reason: null, client_id: null, project_id: null, quote_id: null,
    });
    expect(sent.id).toMatch(/^prp_/);

    const listed = await call('GET', `/v1/gigs/${gig.id}/proposals`, { key: poster.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([sent]);
    expect((await call('GET', `/v1/proposals/${sent.id}`, { key: poster.key })).body).toEqual(sent);
    expect((await call('GET', `/v1/proposals/${sent.id}`, { key: sender.key })).body).toEqual(sent);
    expect((await call('GET', '/v1/proposals', { key: sender.key })).body.data).toEqual([sent]);
    expect((await call('GET', `/v1/proposals?gig_id=${gig.id}&status=submitted`, { key: sender.key })).body.data).toEqual([sent]);
    expect((await call('GET', '/v1/proposals?status=accepted', { key: sender.key })).body.data).toEqual([]);
    expect((await call('GET', `/v1/gigs/${gig.id}/proposals?status=declined`, { key: poster.key })).body.data).toEqual([]);
    // The sender's list is of what it sent: the poster's is empty.
    expect((await call('GET', '/v1/proposals', { key: poster.key })).body.data).toEqual([]);

    const [received] = await eventsOf(poster.key, 'gig.proposal_received');
    expect(received!.data.object).toEqual(sent);
    expect(received!.actor).toEqual({ type: 'system', id: null, name: 'proposals' });

    const board = await call('GET', `/v1/gigs/${gig.id}`);
    expect(board.body.proposals_count).toBe(1);
    expect((await call('GET', '/v1/gigs?limit=100')).body.data.find((g: { id: string }) => g.id === gig.id).proposals_count).toBe(1);
    // Neither side learns the other's email or user id before an accept.
    for (const seen of [listed.body, received, sent]) {
      const text = JSON.stringify(seen);
      for (const secret of [sender.email, sender.id, poster.email, poster.id]) expect(text).not.toContain(secret);
    }
    expect(JSON.stringify(board.body)).not.toMatch(/Sam Sender|prp_/);
  });

  it('emails the poster in the poster\'s language, with the sender\'s names and never their email', async () => {
    const [poster, sender] = [await createUser('Poppy Poster'), await createUser('Sam Sender')];
    expect((await call('PATCH', '/api/workspace', { key: poster.key, body: { locale: 'de-DE' } })).status).toBe(200);
    const gig = await postGig(poster.key, { title: 'Logo für eine Bäckerei' });
    const queued = capturedEmails();
    const sent = await sendProposal(sender.key, gig.id, { rate: { type: 'hourly', amount: 8_500 } });
    expect(queued).toHaveLength(1);
    const emails = await deliverLogged(queued, [poster.email]);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email!.to).toEqual([poster.email]);
    expect(email!.subject).toBe('Neue Bewerbung für „Logo für eine Bäckerei“');
    expect(email!.text).toContain('Sam Sender (Sam Sender) hat sich auf Ihren Auftrag „Logo für eine Bäckerei“ beworben.');
    expect(email!.text).toContain(`Preis: ${new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(85)} pro Stunde`);
    expect(email!.text).toContain('Schätzung: 12 Stunden');
    expect(email!.text).toContain('I designed logos for two bakeries in Berlin.');
    expect(email!.text).toContain(`GET /v1/gigs/${gig.id}/proposals`);
    expect(JSON.stringify(email)).not.toContain(sender.email);
    // Sent once, however often its message comes.
    const again = await deliverLogged([{ proposal_email_id: (await env.DB.prepare('SELECT id FROM proposal_emails WHERE proposal_id = ?').bind(sent.id).first<{ id: string }>())!.id }], [poster.email]);
    expect(again).toEqual([]);
  });

  it('validates the message, the rate, the estimate and the links', async () => {
    const [poster, sender] = [await createUser(), await createUser()];
    const gig = await postGig(poster.key);
    const bad = await call('POST', `/v1/gigs/${gig.id}/proposals`, {
      key: sender.key,
      body: { message: '', rate: { type: 'weekly', amount: 1.5 }, estimate_hours: 1.2345, links: ['http://insecure.example.com', 'not a url'], available_from: '2026-02-30', extra: 1 },
    });
    expectError(bad, 422, 'validation_failed');
    expect(errorPaths(bad).sort()).toEqual(['available_from', 'estimate_hours', 'extra', 'links.0', 'links.1', 'message', 'rate.amount', 'rate.type']);
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: sender.key, body: proposalBody({ message: 'x'.repeat(5001) }) }), 422, 'validation_failed');
    expect(errorPaths(await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: sender.key, body: proposalBody({ message: 'Hello\u202Eworld' }) }))).toEqual(['message']);
    // The rate is in the gig's currency.
    const usd = await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: sender.key, body: proposalBody({ rate: { type: 'fixed', amount: 90_000, currency: 'USD' } }) });
    expect(errorPaths(usd)).toEqual(['rate.currency']);
    // An hourly offer whose estimate comes to more than any amount may be.
    const huge = await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: sender.key, body: proposalBody({ rate: { type: 'hourly', amount: 10_000_000_000_000 }, estimate_hours: 2 }) });
    expect(errorPaths(huge)).toEqual(['estimate_hours']);
    // A message of 5,000 characters with newlines, and no rate at all, is fine.
    const plain = await sendProposal(sender.key, gig.id, { message: `Line one\n${'y'.repeat(4990)}`, rate: null, estimate_hours: null, links: [] });
    expect(plain).toMatchObject({ rate: null, estimate_hours: null, links: [] });
    expect((await call('GET', `/v1/gigs/${gig.id}`)).body.proposals_count).toBe(1);
  });

  it('refuses the poster\'s own gig, a closed or an expired gig, and a second live proposal (naming the first) with a 409', async () => {
    const [poster, sender] = [await createUser(), await createUser()];
    const gig = await postGig(poster.key);
    expect(expectError(await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: poster.key, body: proposalBody() }), 409, 'conflict').message).toMatch(/own gig/);
    const first = await sendProposal(sender.key, gig.id);
    const second = expectError(await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: sender.key, body: proposalBody() }), 409, 'conflict');
    expect(second.message).toContain(first.id);
    // Withdrawn, it is no longer live: another may follow.
    expect((await call('POST', `/v1/proposals/${first.id}/withdraw`, { key: sender.key })).status).toBe(200);
    await sendProposal(sender.key, gig.id);

    const closed = await postGig(poster.key);
    await call('PATCH', `/v1/gigs/${closed.id}`, { key: poster.key, body: { status: 'closed' } });
    expect(expectError(await call('POST', `/v1/gigs/${closed.id}/proposals`, { key: sender.key, body: proposalBody() }), 409, 'invalid_state').message).toMatch(/closed/);
    const expired = await postGig(poster.key, { expires_on: '2020-01-01' });
    expect(expectError(await call('POST', `/v1/gigs/${expired.id}/proposals`, { key: sender.key, body: proposalBody() }), 409, 'invalid_state').message).toMatch(/expired on 2020-01-01/);
    expectError(await call('POST', '/v1/gigs/gig_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7/proposals', { key: sender.key, body: proposalBody() }), 404, 'not_found');
    expect((await call('GET', `/v1/gigs/${closed.id}`)).body.proposals_count).toBe(0);
  });

  it('lets a workspace send 20 proposals in 24 hours, then answers 429 with Retry-After', async () => {
    const [poster, sender] = [await createUser(), await createUser()];
    const gigs = await Promise.all(Array.from({ length: 21 }, () => postGig(poster.key)));
    for (const gig of gigs.slice(0, 20)) await sendProposal(sender.key, gig.id, { rate: null });
    const refused = await call('POST', `/v1/gigs/${gigs[20]!.id}/proposals`, { key: sender.key, body: proposalBody() });
    expectError(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(86_000);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    // Withdrawing does not give one back: the limit counts what was sent.
    const [sent] = (await call('GET', '/v1/proposals?limit=1', { key: sender.key })).body.data;
    expect((await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: sender.key })).status).toBe(200);
    expectError(await call('POST', `/v1/gigs/${gigs[20]!.id}/proposals`, { key: sender.key, body: proposalBody() }), 429, 'rate_limited');
    // Another workspace of the same person has its own 20.
    const studio = await call('POST', '/api/workspaces', { key: sender.key, body: { name: 'Sender Studio' } });
    await sendProposal(studio.body.api_key.key, gigs[20]!.id);
  });
});

describe('retries and lost messages', () => {
  it('replays a proposal or an accept sent again with the same Idempotency-Key', async () => {
    const [poster, sender] = [await createUser(), await createUser()];
    const gig = await postGig(poster.key);
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: sender.key, body: proposalBody(), headers });
    const again = await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: sender.key, body: proposalBody(), headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const acceptKey = { 'Idempotency-Key': crypto.randomUUID() };
    const accepted = await call('POST', `/v1/gigs/${gig.id}/proposals/${first.body.id}/accept`, { key: poster.key, headers: acceptKey });
    const replayed = await call('POST', `/v1/gigs/${gig.id}/proposals/${first.body.id}/accept`, { key: poster.key, headers: acceptKey });
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replayed.body).toEqual(accepted.body);
    expect((await call('GET', '/v1/quotes', { key: sender.key })).body.data).toHaveLength(1);
  });

  it('sends an email whose queue message was lost with the cron, once', async () => {
    const [poster, sender] = [await createUser(), await createUser()];
    const gig = await postGig(poster.key);
    vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockRejectedValueOnce(new Error('Queue unavailable'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const sent = await sendProposal(sender.key, gig.id);
    vi.restoreAllMocks();
    await env.DB.prepare(`UPDATE proposal_emails SET next_attempt_at = '2020-01-01T00:00:00.000Z' WHERE proposal_id = ?`).bind(sent.id).run();
    const queued = capturedEmails();
    await runScheduled();
    const mine = queued.filter((m) => 'proposal_email_id' in (m as object));
    expect(mine).toHaveLength(1);
    // Only this proposal's: the runtime's own queue may deliver other tests' messages meanwhile.
    const emails = await deliverLogged(mine, [poster.email]);
    expect(emails).toHaveLength(1);
    const row = await env.DB.prepare('SELECT status, attempts FROM proposal_emails WHERE proposal_id = ?').bind(sent.id).first();
    expect(row).toEqual({ status: 'sent', attempts: 1 });
  });
});

describe('withdrawing and declining', () => {
  it('lets the sender withdraw a submitted proposal once, telling the poster; the poster cannot withdraw it', async () => {
    const [poster, sender, stranger] = [await createUser(), await createUser(), await createUser()];
    const gig = await postGig(poster.key);
    const sent = await sendProposal(sender.key, gig.id);
    expectError(await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: stranger.key }), 404, 'not_found');
    expect(expectError(await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: poster.key }), 409, 'invalid_state').message).toMatch(/decline it instead/);
    const withdrawn = await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: sender.key });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ id: sent.id, status: 'withdrawn' });
    expectError(await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: sender.key }), 409, 'invalid_state');
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key }), 409, 'invalid_state');
    const [told] = await eventsOf(poster.key, 'proposal.withdrawn');
    expect(told!.data.object).toEqual(withdrawn.body);
    expect((await call('GET', `/v1/gigs/${gig.id}`)).body.proposals_count).toBe(0);
  });

  it('lets the poster decline with a reason; the sender is told by event and by email in its own language', async () => {
    const [poster, sender, stranger] = [await createUser(), await createUser('Sam Sender'), await createUser()];
    await call('PATCH', '/api/workspace', { key: sender.key, body: { locale: 'fr-FR' } });
    const gig = await postGig(poster.key, { title: 'Logo pour une boulangerie' });
    const sent = await sendProposal(sender.key, gig.id);
    const path = `/v1/gigs/${gig.id}/proposals/${sent.id}/decline`;
    expectError(await call('POST', path, { key: stranger.key, body: { reason: 'No' } }), 404, 'not_found');
    expectError(await call('POST', path, { key: sender.key, body: { reason: 'No' } }), 404, 'not_found');
    // The gig in the path must be the proposal's.
    const other = await postGig(poster.key);
    expectError(await call('POST', `/v1/gigs/${other.id}/proposals/${sent.id}/decline`, { key: poster.key, body: {} }), 404, 'not_found');
    const queued = capturedEmails();
    const declined = await call('POST', path, { key: poster.key, body: { reason: 'Nous avons choisi un studio plus proche.' } });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 'declined', decline_reason: 'Nous avons choisi un studio plus proche.' });
    expectError(await call('POST', path, { key: poster.key, body: {} }), 409, 'invalid_state');
    const [told] = await eventsOf(sender.key, 'proposal.declined');
    expect(told!.data.object).toEqual(declined.body);
    expect(told!.actor).toEqual({ type: 'system', id: null, name: 'proposals' });
    const [email, ...more] = await deliverLogged(queued, [sender.email]);
    expect(more).toEqual([]);
    expect(email!.to).toEqual([sender.email]);
    expect(email!.subject).toBe('Votre proposition pour « Logo pour une boulangerie » a été refusée');
    expect(email!.text).toContain('Motif: Nous avons choisi un studio plus proche.');
    expect(JSON.stringify([told, email])).not.toContain(poster.email);
    expect(JSON.stringify(told)).not.toContain(poster.id);
  });
});

describe('who may do what', () => {
  it('lets viewers read and members act; a third workspace gets 404 for everything of the proposal', async () => {
    const posters = await workspaceWithEveryRole();
    const senders = await workspaceWithEveryRole();
    const stranger = await createUser();
    const gig = await postGig(posters.member.key);
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals`, { key: senders.viewer.key, body: proposalBody() }), 403, 'forbidden');
    const sent = await sendProposal(senders.member.key, gig.id);
    expect((await call('GET', `/v1/proposals/${sent.id}`, { key: senders.viewer.key })).status).toBe(200);
    expect((await call('GET', `/v1/gigs/${gig.id}/proposals`, { key: posters.viewer.key })).body.data).toHaveLength(1);
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: posters.viewer.key }), 403, 'forbidden');
    expectError(await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: senders.viewer.key }), 403, 'forbidden');
    for (const [method, path] of [
      ['GET', `/v1/proposals/${sent.id}`], ['POST', `/v1/proposals/${sent.id}/withdraw`], ['GET', `/v1/gigs/${gig.id}/proposals`],
      ['POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/decline`], ['POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`],
    ] as const) {
      expectError(await call(method, path, { key: stranger.key, body: method === 'POST' ? {} : undefined }), 404, 'not_found');
    }
    expect((await call('GET', '/v1/proposals', { key: stranger.key })).body.data).toEqual([]);
    expect((await call('GET', `/v1/proposals?gig_id=${gig.id}`, { key: stranger.key })).body.data).toEqual([]);
    // Another member of the sending workspace may withdraw it.
    expect((await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: senders.admin.key })).status).toBe(200);
  });

  it('needs a key for every proposal route', async () => {
    const gig = 'gig_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
    const prp = 'prp_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
    await expectKeyRequired('POST', `/v1/gigs/${gig}/proposals`, proposalBody());
    await expectKeyRequired('GET', `/v1/gigs/${gig}/proposals`);
    await expectKeyRequired('POST', `/v1/gigs/${gig}/proposals/${prp}/accept`);
    await expectKeyRequired('POST', `/v1/gigs/${gig}/proposals/${prp}/decline`, {});
    await expectKeyRequired('GET', '/v1/proposals');
    await expectKeyRequired('GET', `/v1/proposals/${prp}`);
    await expectKeyRequired('POST', `/v1/proposals/${prp}/withdraw`);
  });
});
