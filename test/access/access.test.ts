import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, expectError, errorPaths } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createUser } from '../helpers/factories';

const uniqueEmail = () => `person${crypto.randomUUID().slice(0, 8)}@example.com`;

describe('waitlist', () => {
  it('answers the same 202 for a new, a known, an invited and a joined email, keeping the first entry', async () => {
    const email = uniqueEmail();
    const answers = [await call('POST', '/api/waitlist', { body: { email: email.toUpperCase(), name: 'Ada' } })];
    answers.push(await call('POST', '/api/waitlist', { body: { email, name: 'Someone else' } }));
    const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email } });
    answers.push(await call('POST', '/api/waitlist', { body: { email } }));
    await call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name: 'Ada' } });
    answers.push(await call('POST', '/api/waitlist', { body: { email } }));
    answers.push(await call('POST', '/api/waitlist', { body: { email: uniqueEmail() } }));
    for (const res of answers) expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: { status: 'received' } });
    const entries = (await call('GET', '/api/admin/waitlist?limit=100', { key: ADMIN_TOKEN })).body.data.filter((e: { email: string }) => e.email === email);
    expect(entries).toMatchObject([{ email, name: 'Ada', status: 'joined' }]);
  });

  it('rejects a bad email and unknown fields, naming each', async () => {
    const res = await call('POST', '/api/waitlist', { body: { email: 'not-an-email', twitter: '@ada' } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res).sort()).toEqual(['email', 'twitter']);
  });

  it('is listed for the operator, filtered by status, and closed to users', async () => {
    const email = uniqueEmail();
    await call('POST', '/api/waitlist', { body: { email } });
    const listed = await call('GET', '/api/admin/waitlist?status=waiting&limit=100', { key: ADMIN_TOKEN });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: { email: string }) => e.email)).toContain(email);
    expect(listed.body.data.every((e: { status: string }) => e.status === 'waiting')).toBe(true);

    await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email } });
    const invited = await call('GET', '/api/admin/waitlist?status=invited', { key: ADMIN_TOKEN });
    expect(invited.body.data.map((e: { email: string }) => e.email)).toContain(email);

    const user = await createUser();
    expectError(await call('GET', '/api/admin/waitlist', { key: user.key }), 403, 'forbidden');
    expectError(await call('GET', '/api/admin/waitlist'), 401, 'unauthorized');
    expectError(await call('GET', '/api/admin/waitlist', { key: 'wrong-token' }), 401, 'unauthorized');
    expectError(await call('GET', '/api/admin/waitlist?status=bored', { key: ADMIN_TOKEN }), 422, 'validation_failed');
  });
});

describe('invitations', () => {
  it('creates a user with a working key, once', async () => {
    const email = uniqueEmail();
    await call('POST', '/api/waitlist', { body: { email } });
    const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email, expires_in_days: 3 } });
    expect(invite.status).toBe(201);
    expect(invite.body.code).toMatch(/^wsi_/);
    const expiresIn = Date.parse(invite.body.expires_at) - Date.now();
    expect(Math.round(expiresIn / 86_400_000)).toBe(3);

    const accepted = await call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name: 'Grace' } });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user).toMatchObject({ email, name: 'Grace' });
    expect(accepted.body.api_key.key).toMatch(/^wsk_[A-Za-z0-9_-]{32,}$/);

    const me = await call('GET', '/api/me', { key: accepted.body.api_key.key });
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual(accepted.body.user);
    expect(accepted.body.workspace).toEqual({ id: `wsp_${accepted.body.user.id.slice(4)}`, name: 'Grace', role: 'owner' });
    expect(me.body.workspace).toEqual(accepted.body.workspace);
    expect(me.body.key).toEqual({ id: accepted.body.api_key.id, prefix: accepted.body.api_key.prefix, workspace_id: accepted.body.workspace.id });
    expect(me.body.memberships).toEqual([{ workspace_id: accepted.body.workspace.id, name: 'Grace', role: 'owner' }]);

    expectError(await call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name: 'Again' } }), 409, 'invitation_used');
    const joined = await call('GET', '/api/admin/waitlist?status=joined&limit=100', { key: ADMIN_TOKEN });
    expect(joined.body.data.map((e: { email: string }) => e.email)).toContain(email);
  });

  it('lets exactly one of a dozen racing redemptions win', async () => {
    const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: uniqueEmail() } });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name: `Racer ${i}` } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    for (const r of results.filter((r) => r.status === 409)) expectError(r, 409, 'invitation_used');
  });

  it('answers 404 for an unknown code and 410 once expired', async () => {
    expectError(await call('POST', '/api/invitations/accept', { body: { code: 'wsi_nope', name: 'X' } }), 404, 'not_found');
    const { env } = await import('cloudflare:workers');
    const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: uniqueEmail() } });
    await env.DB.prepare('UPDATE invitations SET expires_at = ? WHERE id = ?').bind('2020-01-01T00:00:00.000Z', invite.body.id).run();
    expectError(await call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name: 'Late' } }), 410, 'invitation_expired');
  });

  it('validates the operator\'s input', async () => {
    const res = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: uniqueEmail(), expires_in_days: 31 } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['expires_in_days']);
    expectError(await call('POST', '/api/invitations/accept', { body: { code: 'wsi_x' } }), 404, 'not_found');
    // A signup makes an account: it needs a name, and a code refused for that stays usable.
    const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: uniqueEmail() } });
    const nameless = await call('POST', '/api/invitations/accept', { body: { code: invite.body.code } });
    expectError(nameless, 422, 'validation_failed');
    expect(errorPaths(nameless)).toEqual(['name']);
    expect((await call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name: 'Named' } })).status).toBe(201);
  });
});

describe('API keys', () => {
  it('creates, lists without secrets, and revokes at once', async () => {
    const user = await createUser();
    const created = await call('POST', '/api/keys', { key: user.key, body: { name: 'CI' } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^wsk_/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 12));
    expect((await call('GET', '/api/me', { key: created.body.key })).status).toBe(200);

    const listed = await call('GET', '/api/keys', { key: user.key });
    expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual([created.body.id, user.keyId]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    expect((await call('DELETE', `/api/keys/${created.body.id}`, { key: user.key })).status).toBe(204);
    expectError(await call('GET', '/api/me', { key: created.body.key }), 401, 'unauthorized');
    expect((await call('GET', '/api/me', { key: user.key })).status).toBe(200);
  });

  it('hides another user\'s key behind a 404', async () => {
    const [a, b] = [await createUser(), await createUser()];
    expectError(await call('DELETE', `/api/keys/${a.keyId}`, { key: b.key }), 404, 'not_found');
    expect((await call('GET', '/api/me', { key: a.key })).status).toBe(200);
    expectError(await call('DELETE', '/api/keys/not-a-key-id', { key: b.key }), 404, 'not_found');
    expectError(await call('POST', '/api/keys', { key: b.key, body: { name: '' } }), 422, 'validation_failed');
  });

  it('requires a key on every account route', async () => {
    await expectKeyRequired('GET', '/api/me');
    await expectKeyRequired('GET', '/api/keys');
    await expectKeyRequired('POST', '/api/keys', { name: 'x' });
  });
});
