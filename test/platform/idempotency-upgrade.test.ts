// §1: an Idempotency-Key outlives a deploy (24 h), so a retry that reaches the next release must
// still replay. The stored request is made here exactly as earlier releases wrote it, and the
// retry goes through today's worker.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { call, expectError } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { holdTransfersQueue, recipient } from '../helpers/transfers';

afterEach(() => vi.restoreAllMocks());

const transfers = async (userId: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM transfers WHERE user_id = ?').bind(userId).first<{ n: number }>())!.n;

// As a client writes it: keys in its own order, not sorted.
const body = { target_currency: 'EUR', source_currency: 'USD', source_amount: 100_000, recipient: recipient(), reference: 'Invoice 42' };

/** Sends the transfer with `key`, then rewrites its stored request as an earlier release fingerprinted it. */
async function storedByEarlierRelease(userId: string, userKey: string, key: string, earlierFingerprint: string) {
  const first = await call('POST', '/v1/remit/transfer', { key: userKey, headers: { 'Idempotency-Key': key }, body });
  expect(first.status).toBe(202);
  await env.DB.prepare('UPDATE idempotency_requests SET fingerprint = ? WHERE user_id = ? AND key = ?').bind(earlierFingerprint, userId, key).run();
  return first;
}

describe('an Idempotency-Key stored by an earlier release', () => {
  it.each([
    ['the body as sent (keys in the client\'s order)', (json: typeof body) => JSON.stringify(json)],
    ['the body as canonical JSON (keys sorted)', (json: typeof body) => JSON.stringify(json, Object.keys({ ...json, ...json.recipient, ...json.recipient.account }).sort())],
  ])('replays after the upgrade when it fingerprinted %s', async (_, asStored) => {
    await putRates({ EUR: 0.9213 });
    holdTransfersQueue();
    const user = await createUser();
    const key = crypto.randomUUID();
    const first = await storedByEarlierRelease(user.id, user.key, key, await sha256Hex(`POST /v1/remit/transfer\n${asStored(body)}`));

    const retry = await call('POST', '/v1/remit/transfer', { key: user.key, headers: { 'Idempotency-Key': key }, body });
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(await transfers(user.id)).toBe(1);

    // Another request under that key is still refused.
    expectError(await call('POST', '/v1/remit/transfer', { key: user.key, headers: { 'Idempotency-Key': key }, body: { ...body, source_amount: 100_001 } }), 422, 'idempotency_key_reused');
    expect(await transfers(user.id)).toBe(1);
  });

  it('stores a versioned fingerprint of the body as sent, so what a later release defaults cannot change it', async () => {
    await putRates({ EUR: 0.9213 });
    holdTransfersQueue();
    const user = await createUser();
    const key = crypto.randomUUID();
    // No `reference`: the schema's validated body may gain defaults in a later release; the
    // fingerprint is over what was sent, with keys sorted.
    const sent = { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000, recipient: recipient() };
    expect((await call('POST', '/v1/remit/transfer', { key: user.key, headers: { 'Idempotency-Key': key }, body: sent })).status).toBe(202);
    const stored = await env.DB.prepare('SELECT fingerprint FROM idempotency_requests WHERE user_id = ? AND key = ?').bind(user.id, key).first<{ fingerprint: string }>();
    const canonical = '{"recipient":{"account":{"iban":"DE89370400440532013000"},"country":"DE","name":"Jonas Weber"},"source_amount":100000,"source_currency":"USD","target_currency":"EUR"}';
    expect(stored?.fingerprint).toBe(`v2:${await sha256Hex(`POST /v1/remit/transfer\n${canonical}`)}`);
  });
});
