// An invitation is the invitee's alone (§9): the inviter never sees its code, which goes only to the
// invitee by email; an email that already has an account can be taken only with that account's key;
// an invitation dies with its inviter's right to issue it; acceptance honours Idempotency-Key; and
// quotas follow the person, not the workspace or the address's last 64 bits.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consumeEmails } from '../../src/modules/emails/consumer';
import { ADMIN_TOKEN, call, expectError } from '../helpers/api';
import { addMember, createClient, createUser, emailedCode, type TestUser } from '../helpers/factories';
import { firstLimited } from '../helpers/rate-windows';

const uniqueEmail = () => `invitee-${crypto.randomUUID()}@example.com`;
const invite = (key: string, email: string, role = 'member') => call('POST', '/api/workspace/invitations', { key, body: { email, role } });
const memberIdOf = async (key: string, user: TestUser) =>
  (await call('GET', '/api/workspace/members', { key })).body.data.find((m: { user: { id: string } }) => m.user.id === user.id).id;

afterEach(() => vi.restoreAllMocks());

/** The invitation's email queued and due now, whatever the background queue did with it meanwhile. */
const dueAgain = (invitationId: string) =>
  env.DB.prepare("UPDATE invitations SET email_status = 'queued', email_lease_until = NULL, email_attempts = 0, email_next_attempt_at = ? WHERE id = ?")
    .bind(new Date().toISOString(), invitationId)
    .run();

/** Runs the emails consumer on one invitation's message with the `http` provider, and answers what it posted. */
async function deliverInvitationEmail(invitationId: string, answer = (_posted: any) => Response.json({ id: 'msg_1' })) {
  const posted: any[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    posted.push(await new Request(input as RequestInfo, init).json());
    return answer(posted.at(-1));
  });
  const httpEnv = { ...env, EMAIL_PROVIDER: 'http', EMAIL_API_URL: 'https://mail.example.com/send', EMAIL_API_KEY: 'mk_test' } as Env;
  const message = { id: 'm1', body: { invitation_id: invitationId }, attempts: 1, timestamp: new Date(), ack() {}, retry() {} };
  await consumeEmails({ queue: 'workspace-emails', messages: [message], ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, httpEnv);
  vi.mocked(globalThis.fetch).mockRestore();
  return posted;
}

describe('the code goes to the invitee only', () => {
  it('answers the inviter without a code and emails the code to the invited address', async () => {
    const owner = await createUser('Olive Owner');
    const email = uniqueEmail();
    const created = await invite(owner.key, email);
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toMatch(/wsi_/);
    // The queue may have sent it already with the log provider; make it due again for the http one.
    await dueAgain(created.body.id);
    const [sent] = await deliverInvitationEmail(created.body.id);
    expect(sent.to).toEqual([email]);
    expect(sent.subject).toContain('Olive Owner invited you');
    const code = /wsi_[A-Za-z0-9_-]+/.exec(sent.text)![0];
    expect(sent.html).toContain(code);
    const pending = (await call('GET', '/api/workspace/invitations', { key: owner.key })).body.data[0];
    expect(pending.email_delivery).toEqual({ status: 'sent', attempts: 1, last_error: null });
    const accepted = await call('POST', '/api/invitations/accept', { body: { code, name: 'Ivy' } });
    expect(accepted.status).toBe(201);
    expect(accepted.body.workspace.role).toBe('member');
  });

  it('keeps the code out of the error an admin reads when the email service echoes it back', async () => {
    const owner = await createUser();
    const created = await invite(owner.key, uniqueEmail());
    await dueAgain(created.body.id);
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const [sent] = await deliverInvitationEmail(created.body.id, (body) => new Response(`rejected: ${body.text}`, { status: 422 }));
    const code = /wsi_[A-Za-z0-9_-]+/.exec(sent.text)![0];
    const pending = (await call('GET', '/api/workspace/invitations', { key: owner.key })).body.data[0];
    expect(pending.email_delivery).toMatchObject({ status: 'queued', attempts: 1, last_error: expect.stringContaining('422') });
    expect(JSON.stringify(pending)).not.toContain(code);
    expect(JSON.stringify(warned.mock.calls)).not.toContain(code);
  });

  it('sends nothing for an invitation withdrawn before its email went out', async () => {
    const owner = await createUser();
    const created = await invite(owner.key, uniqueEmail());
    await dueAgain(created.body.id);
    expect((await call('DELETE', `/api/workspace/invitations/${created.body.id}`, { key: owner.key })).status).toBe(204);
    expect(await deliverInvitationEmail(created.body.id)).toEqual([]);
  });
});

describe('an email that has an account', () => {
  it('cannot be taken over by an admin who invites it and accepts the code themself', async () => {
    const victim = await createUser('Victim');
    await createClient(victim.key, { name: 'Victim\'s client' });
    const attacker = await createUser('Attacker');
    const created = await invite(attacker.key, victim.email, 'owner');
    const code = await emailedCode(created.body.id); // as if the attacker had the code anyway
    expectError(await call('POST', '/api/invitations/accept', { body: { code } }), 401, 'unauthorized');
    expectError(await call('POST', '/api/invitations/accept', { body: { code, name: 'Victim' } }), 401, 'unauthorized');
    expectError(await call('POST', '/api/invitations/accept', { key: attacker.key, body: { code } }), 403, 'forbidden');
    expectError(await call('POST', '/api/invitations/accept', { key: 'wsk_unknownunknownunknownunknownunknown00', body: { code } }), 401, 'unauthorized');
    // Nothing was minted for the victim: the attacker's workspace still has one member.
    expect((await call('GET', '/api/workspace/members', { key: attacker.key })).body.data).toHaveLength(1);
    // The account holder can still take it.
    const accepted = await call('POST', '/api/invitations/accept', { key: victim.key, body: { code } });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.id).toBe(victim.id);
  });

  it('still lets the operator\'s recovery invitation in without a key (the way back for someone who lost every key)', async () => {
    const user = await createUser('Lost');
    const recovery = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: user.email } });
    expect(recovery.body.code).toMatch(/^wsi_/);
    expect((await call('POST', '/api/invitations/accept', { body: { code: recovery.body.code } })).status).toBe(201);
  });
});

describe('an invitation dies with its inviter\'s right to issue it', () => {
  it('is withdrawn when its inviter is removed', async () => {
    const owner = await createUser();
    const admin = await addMember(owner.key, 'admin');
    const created = await invite(admin.key, uniqueEmail());
    expect((await call('DELETE', `/api/workspace/members/${await memberIdOf(owner.key, admin)}`, { key: owner.key })).status).toBe(204);
    expectError(await call('POST', '/api/invitations/accept', { body: { code: await emailedCode(created.body.id), name: 'Late' } }), 404, 'not_found');
    expect((await call('GET', '/api/workspace/invitations', { key: owner.key })).body.data).toEqual([]);
  });

  it('is withdrawn when its inviter is demoted below admin; an owner\'s owner invitation when they step down to admin', async () => {
    const owner = await createUser();
    const admin = await addMember(owner.key, 'admin');
    const coOwner = await addMember(owner.key, 'owner');
    const byAdmin = await invite(admin.key, uniqueEmail());
    const ownerInvite = await invite(coOwner.key, uniqueEmail(), 'owner');
    const memberInvite = await invite(coOwner.key, uniqueEmail(), 'viewer');
    await call('PATCH', `/api/workspace/members/${await memberIdOf(owner.key, admin)}`, { key: owner.key, body: { role: 'member' } });
    await call('PATCH', `/api/workspace/members/${await memberIdOf(owner.key, coOwner)}`, { key: owner.key, body: { role: 'admin' } });
    expectError(await call('POST', '/api/invitations/accept', { body: { code: await emailedCode(byAdmin.body.id), name: 'A' } }), 404, 'not_found');
    expectError(await call('POST', '/api/invitations/accept', { body: { code: await emailedCode(ownerInvite.body.id), name: 'B' } }), 404, 'not_found');
    // The co-owner is still an admin: the viewer invitation they issued lives on.
    const accepted = await call('POST', '/api/invitations/accept', { body: { code: await emailedCode(memberInvite.body.id), name: 'C' } });
    expect(accepted.status).toBe(201);
    expect(accepted.body.workspace.role).toBe('viewer');
  });

  it('is refused at acceptance when the inviter lost the right some other way (a row written before withdrawal existed)', async () => {
    const owner = await createUser();
    const admin = await addMember(owner.key, 'admin');
    const created = await invite(admin.key, uniqueEmail());
    // As if the demotion had happened on a release that did not withdraw invitations.
    await env.DB.prepare("UPDATE memberships SET role = 'viewer' WHERE user_id = ?").bind(admin.id).run();
    expectError(await call('POST', '/api/invitations/accept', { body: { code: await emailedCode(created.body.id), name: 'Late' } }), 404, 'not_found');
  });
});

describe('Idempotency-Key on accepting', () => {
  it('replays a signup with the key null, and refuses the same key with another body', async () => {
    const created = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: uniqueEmail() } });
    const body = { code: created.body.code, name: 'Retry Ruth' };
    const headers = { 'Idempotency-Key': 'accept-ruth-1' };
    const first = await call('POST', '/api/invitations/accept', { headers, body });
    expect(first.status).toBe(201);
    const again = await call('POST', '/api/invitations/accept', { headers, body });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, api_key: { ...first.body.api_key, key: null } });
    expectError(await call('POST', '/api/invitations/accept', { headers, body: { ...body, name: 'Someone else' } }), 422, 'idempotency_key_reused');
    expectError(await call('POST', '/api/invitations/accept', { headers: { 'Idempotency-Key': 'another' }, body }), 409, 'invitation_used');
    expectError(await call('POST', '/api/invitations/accept', { body }), 409, 'invitation_used');
  });

  it('replays a workspace invitation, and gives concurrent retries with one key one key between them', async () => {
    const owner = await createUser();
    const created = await invite(owner.key, uniqueEmail(), 'viewer');
    const body = { code: await emailedCode(created.body.id), name: 'Concurrent Carl' };
    const headers = { 'Idempotency-Key': 'accept-carl' };
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/api/invitations/accept', { headers, body })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const minted = answers.filter((a) => a.body.api_key.key !== null);
    expect(minted).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.api_key.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(2);
    const members = (await call('GET', '/api/workspace/members', { key: owner.key })).body.data;
    expect(members.map((m: { role: string }) => m.role)).toEqual(['owner', 'viewer']);
    // A later retry, as a client whose answer was lost sends it: no key (the key was in that answer).
    const later = await call('POST', '/api/invitations/accept', { headers, body });
    expect(later.status).toBe(201);
    expect(later.headers.get('Idempotent-Replayed')).toBe('true');
    expect(later.body.api_key).toMatchObject({ id: answers[0]!.body.api_key.id, key: null });
  });
});

describe('quotas follow the person', () => {
  it('lets one person own at most 10 workspaces, their personal one included, even when created at once', async () => {
    const user = await createUser('Serial Founder');
    const made = await Promise.all(Array.from({ length: 11 }, (_, i) => call('POST', '/api/workspaces', { key: user.key, body: { name: `Studio ${i}` } })));
    expect(made.filter((r) => r.status === 201)).toHaveLength(9);
    for (const refused of made.filter((r) => r.status !== 201)) expectError(refused, 409, 'conflict');
    expect((await call('GET', '/api/workspaces?limit=100', { key: user.key })).body.data).toHaveLength(10);
  });

  it('counts every request of a person in one bucket across their workspaces', async () => {
    const user = await createUser();
    const second = await call('POST', '/api/workspaces', { key: user.key, body: { name: 'Second' } });
    const buckets: string[] = [];
    const limiter = env.WORKSPACE_RATE_LIMITER;
    vi.spyOn(limiter, 'limit').mockImplementation(async ({ key }) => {
      buckets.push(key);
      return { success: true };
    });
    await call('GET', '/v1/clients', { key: user.key });
    await call('GET', '/v1/clients', { key: second.body.api_key.key });
    expect(buckets.filter((b) => b === `api-user:${user.id}`)).toHaveLength(2);
    expect(new Set(buckets.filter((b) => b.startsWith('api:'))).size).toBe(2);
  });

  it('refuses a person\'s 601st request in a minute over two workspaces', async () => {
    const user = await createUser();
    const second = await call('POST', '/api/workspaces', { key: user.key, body: { name: 'Second' } });
    const counts = new Map<string, number>();
    // The binding counts per location; this stands in for it with an exact count.
    vi.spyOn(env.WORKSPACE_RATE_LIMITER, 'limit').mockImplementation(async ({ key }) => {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { success: counts.get(key)! <= 600 };
    });
    vi.spyOn(env.RATE_LIMITER, 'limit').mockResolvedValue({ success: true });
    counts.set(`api-user:${user.id}`, 599);
    expect((await call('GET', '/v1/clients', { key: user.key })).status).toBe(200);
    const refused = await call('GET', '/v1/clients', { key: second.body.api_key.key });
    expectError(refused, 429, 'rate_limited');
    expect(refused.body.error.message).toContain('per user');
  });

  it('counts an IPv6 client by its /64 on public routes', async () => {
    const accept = (address: string) =>
      call('POST', '/api/invitations/accept', { headers: { 'CF-Connecting-IP': address }, body: { code: 'wsi_unknownunknownunknownunknown00' } });
    // Ten addresses of one /64, then another one of it written out in full: the same bucket, now full.
    const limited = await firstLimited(11, (i) => accept(i < 10 ? `2001:db8:1:2::${(i + 1).toString(16)}` : '2001:0db8:0001:0002:ffff:ffff:ffff:fffe'));
    expect(limited?.after).toBe(10);
    expectError(limited!.res, 429, 'rate_limited');
    // The next /64 is another client.
    expect((await accept('2001:db8:1:3::1')).status).toBe(404);
    // A count may wait for a fresh minute window (rate-windows.ts): up to about 70 s by design.
  }, 180_000);
});
