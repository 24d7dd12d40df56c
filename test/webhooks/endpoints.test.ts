// Webhook endpoints (§11): the secret shown once and stored encrypted, the rules of a URL and of a
// subscription, the 16-endpoint limit, rotation, and who may see any of it.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createUser } from '../helpers/factories';
import { createEndpoint } from './helpers';

describe('webhook endpoints', () => {
  it('shows the secret once, as whsec_ + padded base64, and stores it only encrypted', async () => {
    const owner = await createUser();
    const created = await call('POST', '/api/webhook-endpoints', {
      key: owner.key,
      body: { url: 'https://books.example.com/hooks', description: 'Bookkeeping', events: ['invoice.paid', 'invoice.paid', 'transfer.failed'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: 'https://books.example.com/hooks', events: ['invoice.paid', 'transfer.failed'], status: 'enabled', disabled_reason: null });
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(atob(secret.slice(6)).length).toBeGreaterThanOrEqual(24);

    const read = await call('GET', `/api/webhook-endpoints/${created.body.id}`, { key: owner.key });
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify((await call('GET', '/api/webhook-endpoints', { key: owner.key })).body)).not.toContain(secret.slice(6, 20));
    const stored = await env.DB.prepare('SELECT secret FROM webhook_endpoints WHERE id = ?').bind(created.body.id).first<{ secret: string }>();
    expect(stored!.secret).not.toContain(secret.slice(6, 20));
    // No event carries it either.
    expect(JSON.stringify((await call('GET', '/api/events?limit=100', { key: owner.key })).body)).not.toContain(secret.slice(6, 20));
  });

  it('replays a create without its secret', async () => {
    const owner = await createUser();
    const send = () => call('POST', '/api/webhook-endpoints', { key: owner.key, headers: { 'Idempotency-Key': 'we-1' }, body: { url: 'https://h.example.com/x', events: ['*'] } });
    const first = await send();
    const again = await send();
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.secret).toBeNull();
  });

  it('refuses hostile URLs, unknown event types and unknown fields, writing nothing', async () => {
    const owner = await createUser();
    for (const url of ['http://hooks.example.com/', 'https://10.0.0.1/', 'https://0x7f000001/', 'https://[::ffff:192.168.0.1]/', 'https://u:p@hooks.example.com/', 'https://localhost/']) {
      const res = await call('POST', '/api/webhook-endpoints', { key: owner.key, body: { url, events: ['*'] } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual(['url']);
    }
    const badType = await call('POST', '/api/webhook-endpoints', { key: owner.key, body: { url: 'https://h.example.com/', events: ['invoice.payed'] } });
    expect(errorPaths(badType)).toEqual(['events.0']);
    const extra = await call('POST', '/api/webhook-endpoints', { key: owner.key, body: { url: 'https://h.example.com/', events: ['*'], secret: 'mine' } });
    expectError(extra, 422, 'validation_failed');
    const none = await call('POST', '/api/webhook-endpoints', { key: owner.key, body: { url: 'https://h.example.com/', events: [] } });
    expect(errorPaths(none)).toEqual(['events']);
    expect((await call('GET', '/api/webhook-endpoints', { key: owner.key })).body.data).toEqual([]);
    // A PATCH to a hostile URL changes nothing either.
    const endpoint = await createEndpoint(owner.key);
    expect(errorPaths(await call('PATCH', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key, body: { url: 'https://127.1/' } }))).toEqual(['url']);
    expect((await call('GET', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key })).body.url).toBe(endpoint.url);
  });

  it('holds 16 endpoints a workspace: the 17th is a 409', async () => {
    const owner = await createUser();
    for (let i = 0; i < 16; i++) await createEndpoint(owner.key, { url: `https://h${i}.example.com/` });
    expectError(await call('POST', '/api/webhook-endpoints', { key: owner.key, body: { url: 'https://h16.example.com/', events: ['*'] } }), 409, 'conflict');
    expect((await call('GET', '/api/webhook-endpoints?limit=100', { key: owner.key })).body.data).toHaveLength(16);
  });

  it('changes, disables by hand, re-enables and deletes', async () => {
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const changed = await call('PATCH', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key, body: { events: ['invoice.sent'], description: 'Slack' } });
    expect(changed.body).toMatchObject({ events: ['invoice.sent'], description: 'Slack' });
    const off = await call('PATCH', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key, body: { status: 'disabled' } });
    expect(off.body).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    const on = await call('PATCH', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key, body: { status: 'enabled' } });
    expect(on.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect((await call('DELETE', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key })).status).toBe(204);
    expectError(await call('GET', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key }), 404, 'not_found');
  });

  it('rotates the secret: a new one shown once, the old one kept for the overlap asked for', async () => {
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const rotated = await call('POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: owner.key, body: { expire_previous_in_hours: 2 } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const row = await env.DB.prepare('SELECT previous_secret_expires_at AS at FROM webhook_endpoints WHERE id = ?').bind(endpoint.id).first<{ at: string }>();
    expect(Date.parse(row!.at) - Date.now()).toBeGreaterThan(119 * 60_000);
    expectError(await call('POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: owner.key, body: { expire_previous_in_hours: 73 } }), 422, 'validation_failed');
  });

  it('is an admin\'s: members and viewers get 403, other workspaces 404', async () => {
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const member = await addMember(owner.key, 'member');
    expectError(await call('GET', '/api/webhook-endpoints', { key: member.key }), 403, 'forbidden');
    expectError(await call('GET', `/api/webhook-endpoints/${endpoint.id}`, { key: member.key }), 403, 'forbidden');
    const stranger = await createUser();
    expectError(await call('GET', `/api/webhook-endpoints/${endpoint.id}`, { key: stranger.key }), 404, 'not_found');
    expectError(await call('DELETE', `/api/webhook-endpoints/${endpoint.id}`, { key: stranger.key }), 404, 'not_found');
  });
});
