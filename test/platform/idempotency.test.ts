import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createUser } from '../helpers/factories';

const count = async (table: string, userId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<{ n: number }>())!.n;

describe('Idempotency-Key on POST', () => {
  it('replays the first answer for the same key and body, creating nothing twice', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'create-acme-1' };
    const first = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' }, headers });
    const again = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' }, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count('clients', user.id)).toBe(1);
  });

  it('refuses the same key with another body', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'k-2' };
    await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' }, headers });
    expectError(await call('POST', '/v1/clients', { key: user.key, body: { name: 'Globex' }, headers }), 422, 'idempotency_key_reused');
    expect(await count('clients', user.id)).toBe(1);
  });

  it('scopes keys to the caller', async () => {
    const [a, b] = [await createUser(), await createUser()];
    const headers = { 'Idempotency-Key': 'shared-key' };
    const forA = await call('POST', '/v1/clients', { key: a.key, body: { name: 'Acme' }, headers });
    const forB = await call('POST', '/v1/clients', { key: b.key, body: { name: 'Acme' }, headers });
    expect(forB.status).toBe(201);
    expect(forB.headers.get('Idempotent-Replayed')).toBeNull();
    expect(forB.body.id).not.toBe(forA.body.id);
  });

  it('answers 409 while the first request with the key is still in flight', async () => {
    const user = await createUser();
    const body = { name: 'Acme' };
    const first = await call('POST', '/v1/clients', { key: user.key, body, headers: { 'Idempotency-Key': 'slow' } });
    // Put the record back into the state it has while the first request runs.
    await env.DB.prepare("UPDATE idempotency_keys SET state = 'in_flight', response_status = NULL WHERE user_id = ? AND key = 'slow'").bind(user.id).run();
    const res = await call('POST', '/v1/clients', { key: user.key, body, headers: { 'Idempotency-Key': 'slow' } });
    expectError(res, 409, 'conflict');
    expect(first.status).toBe(201);
  });

  it('replays a validation failure too, and forgets a key after 24 hours', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'bad-body' };
    const first = await call('POST', '/v1/clients', { key: user.key, body: { name: '' }, headers });
    expectError(first, 422, 'validation_failed');
    const again = await call('POST', '/v1/clients', { key: user.key, body: { name: '' }, headers });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.error.details).toEqual(first.body.error.details);

    await env.DB.prepare("UPDATE idempotency_keys SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = ?").bind(user.id).run();
    const fresh = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Now valid' }, headers });
    expect(fresh.status).toBe(201);
  });

  it('rejects a malformed key', async () => {
    const user = await createUser();
    const res = await call('POST', '/v1/clients', { key: user.key, body: { name: 'A' }, headers: { 'Idempotency-Key': 'x'.repeat(256) } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['Idempotency-Key']);
  });
});
