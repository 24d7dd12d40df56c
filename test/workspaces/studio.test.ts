// A studio shares one workspace: the owner invites people with roles, each role can do what §9
// says and no more, a workspace always keeps an owner, and leaving or being removed takes effect
// at once. Records of one workspace are a 404 to a key of another, even for the same person.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, errorPaths, expectError } from '../helpers/api';
import { addMember, createClient, createUser, emailedCode, type TestUser } from '../helpers/factories';

const members = async (key: string) => (await call('GET', '/api/workspace/members', { key })).body.data;
const memberIdOf = async (key: string, user: TestUser) => (await members(key)).find((m: { user: { id: string } }) => m.user.id === user.id).id;
const uniqueEmail = () => `studio-${crypto.randomUUID()}@example.com`;

describe('a studio of three', () => {
  it('invites an admin and a viewer who then act in the owner\'s workspace with their roles', async () => {
    const owner = await createUser('Olive Owner');
    const admin = await addMember(owner.key, 'admin', 'Ada Admin');
    const viewer = await addMember(owner.key, 'viewer', 'Vic Viewer');

    const list = await members(owner.key);
    expect(list.map((m: { user: { name: string }; role: string }) => [m.user.name, m.role])).toEqual([
      ['Olive Owner', 'owner'], ['Ada Admin', 'admin'], ['Vic Viewer', 'viewer'],
    ]);
    const ownerWorkspace = (await call('GET', '/api/workspace', { key: owner.key })).body;
    const viewerMe = (await call('GET', '/api/me', { key: viewer.key })).body;
    expect(viewerMe.workspace).toEqual({ id: ownerWorkspace.id, name: ownerWorkspace.name, role: 'viewer' });
    // Each new person also got a personal workspace of their own.
    expect(viewerMe.memberships.map((m: { role: string }) => m.role).sort()).toEqual(['owner', 'viewer']);

    // The admin's client is the studio's: the viewer reads it, but cannot write.
    const client = await createClient(admin.key, { name: 'Shared Client' });
    expect((await call('GET', `/v1/clients/${client.id}`, { key: viewer.key })).body.name).toBe('Shared Client');
    const refused = await call('POST', '/api/workflow/clients', { key: viewer.key, body: { name: 'Nope' } });
    expectError(refused, 403, 'forbidden');
    expect(refused.body.error.message).toContain('member');
    // The event record says who did it.
    const created = (await call('GET', '/api/events?type=client.created', { key: viewer.key })).body.data[0];
    expect(created.actor).toEqual({ type: 'user', id: admin.id, name: 'Ada Admin' });
    const added = (await call('GET', '/api/events?type=member.added', { key: owner.key })).body.data;
    expect(added.map((e: { data: { object: { user: { name: string }; role: string } } }) => [e.data.object.user.name, e.data.object.role])).toEqual([
      ['Vic Viewer', 'viewer'], ['Ada Admin', 'admin'],
    ]);
  });

  it('lets only an owner grant or take owner, and keeps the last owner', async () => {
    const owner = await createUser('Olive Owner');
    const admin = await addMember(owner.key, 'admin');
    const member = await addMember(owner.key, 'member');
    const ownerId = await memberIdOf(owner.key, owner);
    const memberId = await memberIdOf(owner.key, member);

    const grant = await call('PATCH', `/api/workspace/members/${memberId}`, { key: admin.key, body: { role: 'owner' } });
    expectError(grant, 403, 'forbidden');
    expect(grant.body.error.message).toContain('owner');
    expectError(await call('PATCH', `/api/workspace/members/${ownerId}`, { key: admin.key, body: { role: 'viewer' } }), 403, 'forbidden');
    expectError(await call('DELETE', `/api/workspace/members/${ownerId}`, { key: admin.key }), 403, 'forbidden');
    expectError(await call('POST', '/api/workspace/invitations', { key: admin.key, body: { email: uniqueEmail(), role: 'owner' } }), 403, 'forbidden');

    // The only owner can neither step down nor leave.
    expectError(await call('PATCH', `/api/workspace/members/${ownerId}`, { key: owner.key, body: { role: 'admin' } }), 409, 'conflict');
    expectError(await call('DELETE', `/api/workspace/members/${ownerId}`, { key: owner.key }), 409, 'conflict');

    // Ownership passes: make another owner, then step down.
    const promoted = await call('PATCH', `/api/workspace/members/${memberId}`, { key: owner.key, body: { role: 'owner' } });
    expect(promoted.body.role).toBe('owner');
    expect((await call('PATCH', `/api/workspace/members/${ownerId}`, { key: owner.key, body: { role: 'admin' } })).body.role).toBe('admin');
    const changed = (await call('GET', '/api/events?type=member.role_changed', { key: member.key })).body.data;
    expect(changed.map((e: { data: { object: { role: string }; previous_attributes: unknown } }) => [e.data.object.role, e.data.previous_attributes])).toEqual([
      ['admin', { role: 'owner' }], ['owner', { role: 'member' }],
    ]);
  });

  it('refuses an unknown role, and changes nothing', async () => {
    const owner = await createUser();
    const member = await addMember(owner.key, 'member');
    const memberId = await memberIdOf(owner.key, member);
    const res = await call('PATCH', `/api/workspace/members/${memberId}`, { key: owner.key, body: { role: 'superuser' } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['role']);
    expectError(await call('POST', '/api/workspace/invitations', { key: owner.key, body: { email: uniqueEmail(), role: 'boss' } }), 422, 'validation_failed');
    expect((await members(owner.key)).find((m: { id: string }) => m.id === memberId).role).toBe('member');
  });

  it('stops a removed member\'s key at once, and lets anyone leave', async () => {
    const owner = await createUser();
    const member = await addMember(owner.key, 'member');
    const viewer = await addMember(owner.key, 'viewer');
    expect((await call('GET', '/v1/clients', { key: member.key })).status).toBe(200);
    expect((await call('DELETE', `/api/workspace/members/${await memberIdOf(owner.key, member)}`, { key: owner.key })).status).toBe(204);
    expectError(await call('GET', '/v1/clients', { key: member.key }), 401, 'unauthorized');

    // A viewer may not remove others, but may leave.
    const ownerId = await memberIdOf(owner.key, owner);
    expectError(await call('DELETE', `/api/workspace/members/${ownerId}`, { key: viewer.key }), 403, 'forbidden');
    expect((await call('DELETE', `/api/workspace/members/${await memberIdOf(owner.key, viewer)}`, { key: viewer.key })).status).toBe(204);
    expectError(await call('GET', '/v1/clients', { key: viewer.key }), 401, 'unauthorized');
    expect((await call('GET', '/api/events?type=member.removed', { key: owner.key })).body.data).toHaveLength(2);
  });
});

describe('workspace invitations', () => {
  it('refuses to invite someone who is already a member', async () => {
    const owner = await createUser();
    const member = await addMember(owner.key, 'member');
    expectError(await call('POST', '/api/workspace/invitations', { key: owner.key, body: { email: member.email, role: 'viewer' } }), 409, 'conflict');
    expectError(await call('POST', '/api/workspace/invitations', { key: owner.key, body: { email: owner.email, role: 'viewer' } }), 409, 'conflict');
  });

  it('lists pending invitations without codes; a withdrawn code answers 404', async () => {
    const owner = await createUser();
    const invite = await call('POST', '/api/workspace/invitations', { key: owner.key, body: { email: uniqueEmail(), role: 'member', expires_in_days: 2 } });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ role: 'member' });
    expect(invite.body).not.toHaveProperty('code');
    const code = await emailedCode(invite.body.id);
    const pending = (await call('GET', '/api/workspace/invitations', { key: owner.key })).body.data;
    expect(pending).toEqual([{
      id: invite.body.id, email: invite.body.email, role: 'member', expires_at: invite.body.expires_at, created_at: expect.any(String),
      email_delivery: { status: expect.stringMatching(/^(queued|sent)$/), attempts: expect.any(Number), last_error: null },
    }]);
    expect(JSON.stringify(pending)).not.toContain(code);

    expect((await call('DELETE', `/api/workspace/invitations/${invite.body.id}`, { key: owner.key })).status).toBe(204);
    expectError(await call('POST', '/api/invitations/accept', { body: { code, name: 'Late' } }), 404, 'not_found');
    expect((await call('GET', '/api/workspace/invitations', { key: owner.key })).body.data).toEqual([]);
    expectError(await call('DELETE', `/api/workspace/invitations/${invite.body.id}`, { key: owner.key }), 404, 'not_found');
  });

  it('adds an existing user to the workspace with a key for it; their own workspace stays theirs', async () => {
    const owner = await createUser('Studio Owner');
    const freelancer = await createUser('Fran');
    await createClient(freelancer.key, { name: 'Fran\'s own client' });
    const invite = await call('POST', '/api/workspace/invitations', { key: owner.key, body: { email: freelancer.email, role: 'member' } });
    const code = await emailedCode(invite.body.id);
    // The email has an account: only a key of that account can take the invitation.
    const accepted = await call('POST', '/api/invitations/accept', { key: freelancer.key, body: { code } });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.id).toBe(freelancer.id);
    expect(accepted.body.workspace.role).toBe('member');
    const studioKey = accepted.body.api_key.key;
    // The same person, two workspaces, two keys: each sees only its own records.
    expect((await call('GET', '/v1/clients', { key: studioKey })).body.data).toEqual([]);
    const own = (await call('GET', '/v1/clients', { key: freelancer.key })).body.data;
    expect(own.map((c: { name: string }) => c.name)).toEqual(['Fran\'s own client']);
    expectError(await call('GET', `/v1/clients/${own[0].id}`, { key: studioKey }), 404, 'not_found');
    expectError(await call('POST', '/api/invitations/accept', { key: freelancer.key, body: { code } }), 409, 'invitation_used');
  });
});

describe('recovery', () => {
  it('gives someone who lost every key a new owner key for their personal workspace', async () => {
    const user = await createUser('Lost Keys');
    const client = await createClient(user.key, { name: 'Still here' });
    const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: user.email } });
    expect(invite.body.kind).toBe('recovery');
    const accepted = await call('POST', '/api/invitations/accept', { body: { code: invite.body.code } });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.id).toBe(user.id);
    expect(accepted.body.workspace).toMatchObject({ id: `wsp_${user.id.slice(4)}`, role: 'owner' });
    expect((await call('GET', `/v1/clients/${client.id}`, { key: accepted.body.api_key.key })).body.name).toBe('Still here');
  });

  it('calls an invitation for a new email a signup', async () => {
    expect((await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: uniqueEmail() } })).body.kind).toBe('signup');
  });
});

describe('keys', () => {
  it('will not revoke the last active key, counted over every workspace', async () => {
    const user = await createUser();
    const res = await call('DELETE', `/api/keys/${user.keyId}`, { key: user.key });
    expectError(res, 409, 'conflict');
    expect((await call('GET', '/api/me', { key: user.key })).status).toBe(200);
    const spare = await call('POST', '/api/keys', { key: user.key, body: { name: 'spare' } });
    expect((await call('DELETE', `/api/keys/${user.keyId}`, { key: user.key })).status).toBe(204);
    expectError(await call('DELETE', `/api/keys/${spare.body.id}`, { key: spare.body.key }), 409, 'conflict');
  });

  it('binds a new key to the workspace of the key that made it', async () => {
    const owner = await createUser();
    const member = await addMember(owner.key, 'member');
    const workspaceId = (await call('GET', '/api/workspace', { key: owner.key })).body.id;
    const made = await call('POST', '/api/keys', { key: member.key, body: { name: 'laptop' } });
    expect(made.body.workspace_id).toBe(workspaceId);
    const listed = (await call('GET', '/api/keys', { key: member.key })).body.data;
    expect(listed.every((k: { workspace_id: string }) => k.workspace_id === workspaceId)).toBe(true);
  });
});
