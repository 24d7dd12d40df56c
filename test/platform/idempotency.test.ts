import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type ApiResponse, call, errorPaths, expectError } from '../helpers/api';
import { createInvoice, createSentInvoice, createUser } from '../helpers/factories';

const count = async (table: string, userId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<{ n: number }>())!.n;

/**
 * Runs `request` while any write to a key after its change's batch fails (a trigger refuses it): a
 * change whose key is committed with it needs none, so the request still answers as usual.
 */
async function withNoSecondWrite<T>(request: () => Promise<T>): Promise<T> {
  await env.DB.exec("CREATE TRIGGER no_second_write BEFORE UPDATE ON idempotency_requests WHEN OLD.state <> 'in_flight' BEGIN SELECT RAISE(ABORT, 'written twice'); END");
  try {
    return await request();
  } finally {
    await env.DB.exec('DROP TRIGGER no_second_write');
  }
}

/** `again` is a replay of `first`: marked as one, with the same status and body. */
function expectReplayOf(again: ApiResponse, first: ApiResponse) {
  expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  expect(again.status).toBe(first.status);
  expect(again.body).toEqual(first.body);
}

/** What is stored for a user's key (the replay's record). */
const storedKey = (userId: string, key: string) =>
  env.DB.prepare('SELECT state, response_body FROM idempotency_requests WHERE user_id = ? AND key = ?').bind(userId, key).first<{ state: string; response_body: string }>();

describe('Idempotency-Key on POST', () => {
  it('replays the first answer for the same key and body, creating nothing twice', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'create-acme-1' };
    const first = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' }, headers });
    const again = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' }, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expectReplayOf(again, first);
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

  it('answers 409 while the first request with the key is in flight, and lets a retry run once it is abandoned', async () => {
    const user = await createUser();
    const body = { name: 'Acme' };
    const first = await call('POST', '/v1/clients', { key: user.key, body, headers: { 'Idempotency-Key': 'slow' } });
    expect(first.status).toBe(201);
    // Put the record back into the state it has while the first request runs: 59 s in.
    const inFlightSince = (seconds: number) =>
      env.DB.prepare("UPDATE idempotency_requests SET state = 'in_flight', response_status = NULL, response_body = NULL, created_at = ? WHERE user_id = ? AND key = 'slow'")
        .bind(new Date(Date.now() - seconds * 1000).toISOString(), user.id)
        .run();
    await inFlightSince(59);
    expectError(await call('POST', '/v1/clients', { key: user.key, body, headers: { 'Idempotency-Key': 'slow' } }), 409, 'conflict');
    // 61 s in, the first attempt is taken as dead: the retry runs, and its answer is kept from then on.
    await inFlightSince(61);
    const retry = await call('POST', '/v1/clients', { key: user.key, body, headers: { 'Idempotency-Key': 'slow' } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
    const replay = await call('POST', '/v1/clients', { key: user.key, body, headers: { 'Idempotency-Key': 'slow' } });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.id).toBe(retry.body.id);
  });

  it('commits the key with the change: a create whose answer is its record stores nothing more, and a retry replays it', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'answer-lost' };
    const client = (await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' } })).body;
    const body = { client_id: client.id, line_items: [{ description: 'Design', quantity: 2, unit_amount: 5000 }] };
    const first = await withNoSecondWrite(() => call('POST', '/v1/invoices', { key: user.key, body, headers }));
    expect(first.status).toBe(201);
    // The client never got that answer (a dropped connection): it retries.
    expectReplayOf(await call('POST', '/v1/invoices', { key: user.key, body, headers }), first);
    expect(await count('invoices', user.id)).toBe(1);
  });

  it('claims a create\'s key in its first batch with the same outcomes: replay, another body, in flight, abandoned, failed, expired', async () => {
    const user = await createUser();
    const client = (await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' } })).body;
    const body = { client_id: client.id, line_items: [{ description: 'Design', quantity: 2, unit_amount: 5000 }] };
    const create = (key: string, sent: object = body) => call('POST', '/v1/invoices', { key: user.key, body: sent, headers: { 'Idempotency-Key': key } });
    const first = await create('riding');
    expect(first.status).toBe(201);
    const replay = await create('riding');
    expectReplayOf(replay, first);
    expect(replay.headers.get('X-Request-Id')).not.toBe(first.headers.get('X-Request-Id'));
    expectError(await create('riding', { ...body, notes: 'other' }), 422, 'idempotency_key_reused');
    expect(await count('invoices', user.id)).toBe(1);

    const inFlightSince = (seconds: number) =>
      env.DB.prepare("UPDATE idempotency_requests SET state = 'in_flight', response_status = NULL, response_body = NULL, created_at = ? WHERE user_id = ? AND key = 'riding'")
        .bind(new Date(Date.now() - seconds * 1000).toISOString(), user.id)
        .run();
    await inFlightSince(59);
    expectError(await create('riding'), 409, 'conflict');
    expect(await count('invoices', user.id)).toBe(1);
    // Abandoned: the retry takes the key over, and its batch goes again with the key held.
    await inFlightSince(61);
    const retry = await create('riding');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
    expect(retry.body.id).not.toBe(first.body.id);
    expectReplayOf(await create('riding'), retry);
    expect(await count('invoices', user.id)).toBe(2);

    // A create refused after its first batch keeps no key; a corrected retry with it proceeds.
    expectError(await create('fails-first', { ...body, client_id: 'cli_01ARZ3NDEKTSV4RRFFQ69G5FAV' }), 422, 'validation_failed');
    expect((await create('fails-first')).status).toBe(201);
    await env.DB.prepare("UPDATE idempotency_requests SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = ? AND key = 'fails-first'").bind(user.id).run();
    const fresh = await create('fails-first');
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await count('invoices', user.id)).toBe(4);
  });

  it('commits a keyed send with its change, stores its hosted link nowhere, and replays it with the link that works now', async () => {
    const user = await createUser();
    const invoice = await createInvoice(user.key);
    const headers = { 'Idempotency-Key': 'send-once' };
    const send = () => call('POST', `/v1/invoices/${invoice.id}/send`, { key: user.key, body: { email: false }, headers });
    // Nothing is written to the key after the change's batch: a worker that dies once the batch has
    // committed leaves the key replayable, never to be run again.
    const first = await withNoSecondWrite(send);
    expect(first.status).toBe(200);
    const token = String(first.body.hosted_url).split('/i/')[1]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await storedKey(user.id, 'send-once');
    expect(stored!.state).toBe('committed');
    expect(stored!.response_body).not.toContain(token);

    expectReplayOf(await send(), first);
    // After a rotation the first link is dead; a replay shows the one the client can open.
    const rotated = await call('POST', `/v1/invoices/${invoice.id}/share-link`, { key: user.key });
    const afterRotation = await send();
    expect(afterRotation.headers.get('Idempotent-Replayed')).toBe('true');
    expect(afterRotation.body.hosted_url).toBe(rotated.body.hosted_url);
    expect(afterRotation.body.hosted_url).not.toBe(first.body.hosted_url);
    const sent = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE type = 'invoice.sent' AND object_id = ?").bind(invoice.id).first<{ n: number }>();
    expect(sent!.n).toBe(1);
  });

  it('commits a keyed payment with its change too: nothing is written to the key after it, and a retry pays nothing more', async () => {
    const user = await createUser();
    const open = await createSentInvoice(user.key);
    const headers = { 'Idempotency-Key': 'pay-once' };
    const pay = () => call('POST', `/v1/invoices/${open.id}/payments`, { key: user.key, body: { amount: 2_500 }, headers });
    const first = await withNoSecondWrite(pay);
    expect(first.status).toBe(200);
    expect(first.body.hosted_url).toMatch(/\/i\/[A-Za-z0-9_-]{43}$/);
    expectReplayOf(await pay(), first);
    expect((await call('GET', `/v1/invoices/${open.id}`, { key: user.key })).body.amount_paid).toBe(2_500);
  });

  it('stores the answer of a keyed rotation without its link, and replays the current one', async () => {
    const user = await createUser();
    const invoice = await createInvoice(user.key);
    await call('POST', `/v1/invoices/${invoice.id}/send`, { key: user.key, body: { email: false } });
    const headers = { 'Idempotency-Key': 'rotate-once' };
    const first = await call('POST', `/v1/invoices/${invoice.id}/share-link`, { key: user.key, headers });
    expectReplayOf(await call('POST', `/v1/invoices/${invoice.id}/share-link`, { key: user.key, headers }), first);
    const stored = await storedKey(user.id, 'rotate-once');
    expect(stored!.response_body).not.toContain(String(first.body.hosted_url).split('/i/')[1]);
    expect(JSON.parse(JSON.parse(stored!.response_body).body)).toMatchObject({ id: invoice.id, hosted_url: null, pdf_url: null });
  });

  it('forgets a key whose attempt changed nothing, even when it failed with a 409 after reading', async () => {
    const user = await createUser();
    const client = (await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme' } })).body;
    const invoice = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [{ description: 'x', quantity: 1, unit_amount: 100 }] } })).body;
    const headers = { 'Idempotency-Key': 'void-a-draft' };
    // Voiding a draft is refused after the guarded update changed nothing: the key is not kept.
    expectError(await call('POST', `/v1/invoices/${invoice.id}/void`, { key: user.key, headers, body: {} }), 409, 'invalid_state');
    await call('POST', `/v1/invoices/${invoice.id}/send`, { key: user.key, body: { email: false } });
    const voided = await call('POST', `/v1/invoices/${invoice.id}/void`, { key: user.key, headers, body: {} });
    expect(voided.status).toBe(200);
    expect(voided.headers.get('Idempotent-Replayed')).toBeNull();
    expect(voided.body.status).toBe('void');
  });

  it('does not keep a failed attempt, so a corrected retry with the same key proceeds; forgets keys after 24 hours', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'bad-body' };
    expectError(await call('POST', '/v1/clients', { key: user.key, body: { name: '' }, headers }), 422, 'validation_failed');
    const corrected = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Now valid' }, headers });
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('Idempotent-Replayed')).toBeNull();

    await env.DB.prepare("UPDATE idempotency_requests SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = ?").bind(user.id).run();
    const fresh = await call('POST', '/v1/clients', { key: user.key, body: { name: 'Another' }, headers });
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(corrected.body.id);
  });

  it('compares bodies as canonical JSON: key order and whitespace do not matter', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'canonical' };
    const first = await call('POST', '/v1/clients', { key: user.key, headers, body: '{"name":"Acme","address":{"city":"Berlin","country":"DE"}}' });
    const again = await call('POST', '/v1/clients', { key: user.key, headers, body: '{ "address": { "country": "DE", "city": "Berlin" },\n  "name": "Acme" }' });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });

  it('never stores or replays a secret: a replayed new key comes back null', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': 'mint-ci-key' };
    const first = await call('POST', '/api/keys', { key: user.key, headers, body: { name: 'CI' } });
    expect(first.body.key).toMatch(/^wsk_/);
    const replay = await call('POST', '/api/keys', { key: user.key, headers, body: { name: 'CI' } });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual({ ...first.body, key: null });
    const stored = await env.DB.prepare('SELECT response_body FROM idempotency_requests WHERE user_id = ?').bind(user.id).first<{ response_body: string }>();
    expect(stored!.response_body).not.toContain(first.body.key.slice(4));
  });

  it('rejects a malformed key', async () => {
    const user = await createUser();
    const res = await call('POST', '/v1/clients', { key: user.key, body: { name: 'A' }, headers: { 'Idempotency-Key': 'x'.repeat(256) } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['Idempotency-Key']);
  });
});
