// Money needs a yes (§23): a tool that moves money or sends a document proposes on its first call
// and does nothing; the person's yes comes through the client's form (elicitation) or as
// confirmProposal, which performs it once, only with the proposing key, only before it expires.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { addMember, createClient, createInvoice, createSentInvoice, createUser, type TestUser } from '../helpers/factories';
import { runScheduled } from '../helpers/worker';
import { connect, envelopeOf, textOf } from './client';

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser('Proposals Owner');
});

const eventsOf = async (key: string, type: string) => (await call('GET', `/api/events?type=${type}&limit=100`, { key })).body.data as any[];

/** Moves a proposal's expiry into the past, wherever its workspace's database is. */
async function backdate(id: string) {
  for (const db of [env.DB, env.DB_WORKSPACES_2]) {
    await db.prepare('UPDATE mcp_proposals SET expires_at = ? WHERE id = ?').bind(new Date(Date.now() - 1000).toISOString(), id).run();
  }
}

describe('MCP proposals without elicitation', () => {
  it('proposes sending an invoice and does nothing; confirmProposal sends it once, and a second confirm answers the first result', async () => {
    const client = await createClient(owner.key, { name: 'Acme GmbH' });
    const invoice = await createInvoice(owner.key, { client_id: client.id });
    const { client: mcp } = await connect(owner.key);
    await mcp.listTools();
    const proposed = await mcp.callTool({ name: 'sendInvoice', arguments: { id: invoice.id, email: false } });
    expect(proposed.isError).toBeFalsy();
    const proposal = proposed.structuredContent as { proposal_id: string; summary: string; expires_at: string };
    expect(proposal.proposal_id).toMatch(/^mcp_[0-9A-Z]{26}$/);
    expect(proposal.summary).toBe(`Send invoice ${invoice.number} for $1,000.00 to Acme GmbH.`);
    const minutes = (Date.parse(proposal.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9.9);
    expect(minutes).toBeLessThanOrEqual(10);
    expect(textOf(proposed)[0]).toContain(proposal.proposal_id);
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body.status).toBe('draft');
    const created = (await eventsOf(owner.key, 'mcp.proposal_created')).find((e) => e.data.object.id === proposal.proposal_id);
    expect(created.data.object).toMatchObject({ tool: 'sendInvoice', key_id: owner.keyId, summary: proposal.summary, status: 'pending' });

    const bodyOf = async () => (await env.DB.prepare('SELECT body FROM mcp_proposals WHERE id = ?').bind(proposal.proposal_id).first<{ body: string | null }>())?.body;
    expect(JSON.parse((await bodyOf())!)).toEqual({ email: false });
    const confirmed = await mcp.callTool({ name: 'confirmProposal', arguments: { proposal_id: proposal.proposal_id } });
    expect(confirmed.isError).toBeFalsy();
    expect(confirmed.structuredContent).toMatchObject({ id: invoice.id, status: 'open' });
    const again = await mcp.callTool({ name: 'confirmProposal', arguments: { proposal_id: proposal.proposal_id } });
    expect(again.structuredContent).toEqual(confirmed.structuredContent);
    // Once performed, the proposal keeps its answer, not the request's body (a transfer's would name an account).
    expect(await bodyOf()).toBeNull();
    expect((await eventsOf(owner.key, 'invoice.sent')).filter((e) => e.data.object.id === invoice.id)).toHaveLength(1);
    const done = await eventsOf(owner.key, 'mcp.proposal_confirmed');
    expect(done.filter((e) => e.data.object.id === proposal.proposal_id)).toHaveLength(1);
    await mcp.close();
  });

  // (Intl writes a no-break space between a German amount and its currency sign.)
  it('says what it proposes in the workspace\'s language, naming the amount, the currency, the client and the number', async () => {
    const german = await createUser('Deutsch');
    expect((await call('PATCH', '/api/workspace', { key: german.key, body: { locale: 'de-DE' } })).status).toBe(200);
    const client = await createClient(german.key, { name: 'Beispiel AG', currency: 'EUR' });
    const invoice = await createSentInvoice(german.key, { client_id: client.id });
    const { client: mcp } = await connect(german.key);
    const payment = await mcp.callTool({ name: 'recordInvoicePayment', arguments: { id: invoice.id, amount: 25_050 } });
    expect((payment.structuredContent as any).summary).toBe(`Zahlung von 250,50\u00a0€ von Beispiel AG zu Rechnung ${invoice.number} erfassen.`);
    const voiding = await mcp.callTool({ name: 'voidInvoice', arguments: { id: invoice.id } });
    expect((voiding.structuredContent as any).summary).toBe(`Rechnung ${invoice.number} über 1.000,00\u00a0€ an Beispiel AG stornieren.`);
    const transfer = await mcp.callTool({ name: 'createTransfer', arguments: { source_currency: 'EUR', target_currency: 'GBP', source_amount: 120_000, recipient: { name: 'Jonas Weber', country: 'GB', account: { iban: 'GB82WEST12345698765432' } } } });
    expect((transfer.structuredContent as any).summary).toBe('1.200,00\u00a0€ an Jonas Weber überweisen, ausgezahlt in GBP.');
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: german.key })).body).toMatchObject({ status: 'open', amount_paid: 0 });
    await mcp.close();
  });

  it('lets only the key that proposed confirm, and no one in another workspace', async () => {
    const invoice = await createSentInvoice(owner.key);
    const { client: mcp } = await connect(owner.key);
    const { proposal_id } = (await mcp.callTool({ name: 'recordInvoicePayment', arguments: { id: invoice.id, amount: 100 } })).structuredContent as any;
    const colleague = await addMember(owner.key, 'admin', 'Colleague');
    const stranger = await createUser('Stranger');
    for (const [key, code] of [[colleague.key, 'forbidden'], [stranger.key, 'not_found']] as const) {
      const { client: other } = await connect(key);
      expect(envelopeOf(await other.callTool({ name: 'confirmProposal', arguments: { proposal_id } })).error.code).toBe(code);
      await other.close();
    }
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body.amount_paid).toBe(0);
    const confirmed = await mcp.callTool({ name: 'confirmProposal', arguments: { proposal_id } });
    expect(confirmed.structuredContent).toMatchObject({ id: invoice.id, amount_paid: 100 });
    await mcp.close();
  });

  it('cannot be confirmed once expired: nothing happens and mcp.proposal_expired is written once', async () => {
    const invoice = await createSentInvoice(owner.key);
    const { client: mcp } = await connect(owner.key);
    const { proposal_id } = (await mcp.callTool({ name: 'voidInvoice', arguments: { id: invoice.id } })).structuredContent as any;
    await backdate(proposal_id);
    for (let i = 0; i < 2; i++) {
      const late = envelopeOf(await mcp.callTool({ name: 'confirmProposal', arguments: { proposal_id } }));
      expect(late.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('expired') });
    }
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body.status).toBe('open');
    expect((await eventsOf(owner.key, 'mcp.proposal_expired')).filter((e) => e.data.object.id === proposal_id)).toHaveLength(1);
    await mcp.close();
  });

  it('is expired by the cron once its time is past, if no one answered: mcp.proposal_expired, by the system', async () => {
    const invoice = await createSentInvoice(owner.key);
    const { client: mcp } = await connect(owner.key);
    const { proposal_id } = (await mcp.callTool({ name: 'sendInvoice', arguments: { id: invoice.id } })).structuredContent as any;
    await runScheduled();
    expect((await eventsOf(owner.key, 'mcp.proposal_expired')).filter((e) => e.data.object.id === proposal_id)).toHaveLength(0);
    await backdate(proposal_id);
    await runScheduled();
    await runScheduled();
    const expired = (await eventsOf(owner.key, 'mcp.proposal_expired')).filter((e) => e.data.object.id === proposal_id);
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ actor: { type: 'system' }, data: { object: { status: 'expired', key_id: owner.keyId } } });
    expect(envelopeOf(await mcp.callTool({ name: 'confirmProposal', arguments: { proposal_id } })).error.code).toBe('invalid_state');
    await mcp.close();
  });

  it('answers a proposal\'s failed read as the API\'s error, and proposes nothing for another workspace\'s invoice', async () => {
    const stranger = await createUser('Other');
    const theirs = await createSentInvoice(stranger.key);
    const { client: mcp } = await connect(owner.key);
    expect(envelopeOf(await mcp.callTool({ name: 'sendInvoice', arguments: { id: theirs.id } })).error.code).toBe('not_found');
    await mcp.close();
    const member = await addMember(owner.key, 'member', 'Member');
    const { client: asMember } = await connect(member.key);
    expect(envelopeOf(await asMember.callTool({ name: 'voidInvoice', arguments: { id: theirs.id } })).error.code).toBe('forbidden');
    await asMember.close();
  });
});

describe('MCP proposals with elicitation', () => {
  it('asks the person through the client and performs on accept, answering the operation\'s result', async () => {
    const invoice = await createSentInvoice(owner.key);
    const { client: mcp, transport, questions } = await connect(owner.key, () => 'accept');
    expect(transport.sessionId).toMatch(/^e\./);
    await mcp.listTools();
    const result = await mcp.callTool({ name: 'recordInvoicePayment', arguments: { id: invoice.id, amount: 40_000 } });
    expect(questions).toHaveLength(1);
    expect(questions[0]!.message).toBe(`Record a payment of $400.00 from Acme Ltd on invoice ${invoice.number}.`);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: invoice.id, amount_paid: 40_000 });
    const confirmed = (await eventsOf(owner.key, 'mcp.proposal_confirmed')).find((e) => e.data.object.tool === 'recordInvoicePayment' && e.data.object.summary === questions[0]!.message);
    expect(confirmed).toBeDefined();
    await mcp.close();
  });

  it('does nothing when the person declines', async () => {
    const invoice = await createSentInvoice(owner.key);
    const { client: mcp, questions } = await connect(owner.key, () => 'decline');
    const result = await mcp.callTool({ name: 'voidInvoice', arguments: { id: invoice.id } });
    expect(questions).toHaveLength(1);
    expect(textOf(result)[0]).toMatch(/declined: nothing was done/);
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: owner.key })).body.status).toBe('open');
    const { proposal_id } = result.structuredContent as any;
    expect(envelopeOf(await mcp.callTool({ name: 'confirmProposal', arguments: { proposal_id } })).error.code).toBe('invalid_state');
    await mcp.close();
  });
});
