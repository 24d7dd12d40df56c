// Proposals between workspaces on two databases (§24, lib/databases.ts): the proposal lives in the
// directory, each side's events reach its own database, the accept's records land in the sender's,
// a third workspace gets 404 whichever database it is on, and an accept whose records' batch did
// not land is finished by the cron, once.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { runScheduled } from '../helpers/worker';
import { bindingOf, DATABASES, type DatabaseName, otherThan, rowsById, workspaceOn } from '../scaling/helpers';
import { eventsOf, postGig, sendProposal } from './helpers';

afterEach(() => vi.restoreAllMocks());

const issuer = { legal_name: 'Poster Studio GmbH', email: 'billing@poster.example', peppol_id: '9930:DE111111111', vat_id: 'DE111111111' };

const pairs = DATABASES.flatMap((poster) => DATABASES.map((sender) => [poster, sender] as const));

describe('proposals across databases', () => {
  it.each(pairs)('poster on %s, sender on %s: events on each side\'s database, records on the sender\'s, 404 to others on either', async (posterDb, senderDb) => {
    const poster = await workspaceOn(posterDb, 'poster');
    const sender = await workspaceOn(senderDb, 'sender');
    expect((await call('PATCH', '/api/workspace', { key: poster.key, body: { issuer } })).status).toBe(200);
    const gig = await postGig(poster.key);
    const sent = await sendProposal(sender.key, gig.id);
    expect(await rowsById('proposals', sent.id)).toEqual({ DB: 1, DB_WORKSPACES_2: 0 });
    const [received] = await eventsOf(poster.key, 'gig.proposal_received');
    expect(received!.data.object.id).toBe(sent.id);
    expect(await rowsById('events', (received as unknown as { id: string }).id)).toEqual({ DB: 0, DB_WORKSPACES_2: 0, [posterDb]: 1 });

    for (const strangerDb of DATABASES) {
      const stranger = await workspaceOn(strangerDb, 'stranger');
      expectError(await call('GET', `/v1/proposals/${sent.id}`, { key: stranger.key }), 404, 'not_found');
      expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: stranger.key }), 404, 'not_found');
      expectError(await call('POST', `/v1/proposals/${sent.id}/withdraw`, { key: stranger.key }), 404, 'not_found');
    }

    // A second sender on the same database, whose proposal the accept declines.
    const runnerUp = await workspaceOn(senderDb, 'runner-up');
    const second = await sendProposal(runnerUp.key, gig.id);
    const accepted = await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const { client_id, project_id, quote_id } = accepted.body;
    const [declined] = await eventsOf(runnerUp.key, 'proposal.declined');
    expect(declined!.data.object).toMatchObject({ id: second.id, status: 'declined' });
    expect(await rowsById('events', (declined as unknown as { id: string }).id)).toEqual({ DB: 0, DB_WORKSPACES_2: 0, [senderDb]: 1 });
    for (const [table, id] of [['clients', client_id], ['projects', project_id], ['quotes', quote_id]]) {
      expect(await rowsById(table, id), table).toEqual({ DB: 0, DB_WORKSPACES_2: 0, [senderDb]: 1 });
    }
    const client = await call('GET', `/v1/clients/${client_id}`, { key: sender.key });
    expect(client.body).toMatchObject({ name: 'Poster Studio GmbH', peppol_id: '9930:DE111111111', vat_id: 'DE111111111' });
    expect((await eventsOf(sender.key, 'proposal.accepted')).map((e) => e.data.object.id)).toEqual([sent.id]);
    expect((await eventsOf(poster.key, 'proposal.accepted')).map((e) => e.data.object.id)).toEqual([sent.id]);
    // Nothing of either side's events is left in the directory's outbox for a workspace elsewhere.
    for (const [who, db] of [[poster, posterDb], [sender, senderDb], [runnerUp, senderDb]] as const) {
      if (db === 'DB') continue;
      const left = await env.DB.prepare('SELECT count(*) AS n FROM events WHERE workspace_id = ?').bind(who.id).first<{ n: number }>();
      expect(left!.n).toBe(0);
    }
    for (const strangerDb of DATABASES) {
      const stranger = await workspaceOn(strangerDb, 'stranger');
      expectError(await call('GET', `/v1/clients/${client_id}`, { key: stranger.key }), 404, 'not_found');
      expectError(await call('GET', `/v1/quotes/${quote_id}`, { key: stranger.key }), 404, 'not_found');
    }
  });

  it.each(DATABASES)('finishes an accept whose records\' batch on %s did not land: the cron writes them once', async (senderDb: DatabaseName) => {
    const poster = await workspaceOn(otherThan(senderDb), 'poster');
    const sender = await workspaceOn(senderDb, 'sender');
    const gig = await postGig(poster.key);
    const sent = await sendProposal(sender.key, gig.id);
    // The sender's database refuses the next batch with the accept's records in it.
    const binding = bindingOf(senderDb);
    const withSession = binding.withSession.bind(binding);
    let refused = 0;
    vi.spyOn(binding, 'withSession').mockImplementation((...args: Parameters<D1Database['withSession']>) => {
      const session = withSession(...args);
      const batch = session.batch.bind(session);
      session.batch = (async (statements: D1PreparedStatement[]) => {
        if (!refused && statements.length > 8) {
          refused++;
          throw new Error('D1_ERROR: Network connection lost.');
        }
        return batch(statements);
      }) as D1DatabaseSession['batch'];
      return session;
    });
    const accepted = await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key });
    vi.restoreAllMocks();
    expect(refused).toBe(1);
    // The accept stands and names its records; they are not there yet.
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('accepted');
    expectError(await call('GET', `/v1/clients/${accepted.body.client_id}`, { key: sender.key }), 404, 'not_found');

    // Two minutes on, the cron writes them, in the sender's database, and clears the mark.
    await env.DB.prepare(`UPDATE proposals SET accepted_at = '2020-01-01T00:00:00.000Z' WHERE id = ?`).bind(sent.id).run();
    await runScheduled();
    await runScheduled();
    const posterName = (await call('GET', '/api/workspace', { key: poster.key })).body.name;
    expect((await call('GET', `/v1/clients/${accepted.body.client_id}`, { key: sender.key })).body.name).toBe(posterName);
    expect(await rowsById('quotes', accepted.body.quote_id)).toEqual({ DB: 0, DB_WORKSPACES_2: 0, [senderDb]: 1 });
    expect((await call('GET', '/v1/clients?limit=100', { key: sender.key })).body.data.map((c: { id: string }) => c.id)).toEqual([accepted.body.client_id]);
    expect((await eventsOf(sender.key, 'quote.created')).filter((e) => e.data.object.id === accepted.body.quote_id)).toHaveLength(1);
    const row = await env.DB.prepare('SELECT records_pending FROM proposals WHERE id = ?').bind(sent.id).first<{ records_pending: number }>();
    expect(row!.records_pending).toBe(0);
    // Done: accepting again is the 409 of an accepted proposal.
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key }), 409, 'invalid_state');
  });

  it('lets a retried accept finish the records its first attempt could not write', async () => {
    const poster = await workspaceOn('DB', 'poster');
    const sender = await workspaceOn('DB_WORKSPACES_2', 'sender');
    const gig = await postGig(poster.key);
    const sent = await sendProposal(sender.key, gig.id);
    const binding = bindingOf('DB_WORKSPACES_2');
    const withSession = binding.withSession.bind(binding);
    vi.spyOn(binding, 'withSession').mockImplementation((...args: Parameters<D1Database['withSession']>) => {
      const session = withSession(...args);
      session.batch = (async () => {
        throw new Error('D1_ERROR: Network connection lost.');
      }) as D1DatabaseSession['batch'];
      return session;
    });
    const first = await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key });
    vi.restoreAllMocks();
    expect(first.status).toBe(200);
    const retried = await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    expect((await call('GET', `/v1/quotes/${first.body.quote_id}`, { key: sender.key })).body.status).toBe('draft');
    expectError(await call('POST', `/v1/gigs/${gig.id}/proposals/${sent.id}/accept`, { key: poster.key }), 409, 'invalid_state');
    expect((await call('GET', '/v1/quotes?limit=100', { key: sender.key })).body.data).toHaveLength(1);
  });
});
