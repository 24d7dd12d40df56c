// Quotes first (§6): a quote holds a transfer's terms for 30 minutes and pays for one transfer.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createUser, workspaceWithEveryRole } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { holdTransfersQueue, recipient } from '../helpers/transfers';

const quoteBody = { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000 };
const askQuote = (key: string, body: Record<string, unknown> = quoteBody) => call('POST', '/v1/remit/quotes', { key, body });
const transferWith = (key: string, body: Record<string, unknown>, idempotencyKey = crypto.randomUUID()) =>
  call('POST', '/v1/remit/transfer', { key, headers: { 'Idempotency-Key': idempotencyKey }, body: { recipient: recipient(), ...body } });

beforeEach(async () => {
  holdTransfersQueue();
  await putRates({ EUR: 0.9213, GBP: 0.7871 });
});
afterEach(() => vi.restoreAllMocks());

describe('POST /v1/remit/quotes', () => {
  it('prices a transfer for 30 minutes and moves nothing', async () => {
    const user = await createUser();
    const before = Date.now();
    const res = await askQuote(user.key);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ source_currency: 'USD', source_amount: 100_000, target_currency: 'EUR', fee: 600, rate: expect.any(String), target_amount: 91_577 });
    expect(res.body.id).toMatch(/^rq_[0-9A-HJKMNP-TV-Z]{26}$/);
    const lifetime = Date.parse(res.body.expires_at) - before;
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000 + 60_000);
    expect((await call('GET', '/v1/remit/transfers', { key: user.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/events?type=transfer.created', { key: user.key })).body.data).toEqual([]);
  });

  it('needs an admin, and follows the transfer\'s rules', async () => {
    const roles = await workspaceWithEveryRole();
    expectError(await askQuote(roles.member.key), 403, 'forbidden');
    expectError(await askQuote(roles.admin.key, { ...quoteBody, source_amount: 100 }), 422, 'validation_failed');
    expectError(await askQuote(roles.admin.key, { ...quoteBody, target_currency: 'XXX' }), 422, 'validation_failed');
  });
});

describe('a transfer that names a quote', () => {
  it('gets exactly the quote\'s terms while it lives, even after the rates moved', async () => {
    const user = await createUser();
    const quote = (await askQuote(user.key)).body;
    await putRates({ EUR: 0.5, GBP: 0.7871 });
    const res = await transferWith(user.key, { quote_id: quote.id, reference: 'Invoice 7' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      quote_id: quote.id, source_currency: 'USD', source_amount: 100_000, target_currency: 'EUR',
      fee: quote.fee, rate: quote.rate, rate_as_of: quote.rate_as_of, target_amount: quote.target_amount, reference: 'Invoice 7',
    });
    // The same fields sent along must match the quote.
    const quote2 = (await askQuote(user.key)).body;
    const mismatch = await transferWith(user.key, { quote_id: quote2.id, ...quoteBody, source_amount: 100_001 });
    expect(expectError(mismatch, 422, 'validation_failed').details).toEqual([{ path: 'source_amount', message: expect.any(String) }]);
    expect((await transferWith(user.key, { quote_id: quote2.id, ...quoteBody })).status).toBe(202);
  });

  it('is used by one transfer only: a second is a 409, and a replay of the first is the first', async () => {
    const user = await createUser();
    const quote = (await askQuote(user.key)).body;
    const idempotencyKey = crypto.randomUUID();
    const first = await transferWith(user.key, { quote_id: quote.id }, idempotencyKey);
    expect(first.status).toBe(202);
    const replay = await transferWith(user.key, { quote_id: quote.id }, idempotencyKey);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expectError(await transferWith(user.key, { quote_id: quote.id }), 409, 'conflict');
    // Two at once: one wins.
    const raced = (await askQuote(user.key)).body;
    const both = await Promise.all([transferWith(user.key, { quote_id: raced.id }), transferWith(user.key, { quote_id: raced.id })]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    const transfers = (await call('GET', '/v1/remit/transfers', { key: user.key })).body.data;
    expect(transfers.filter((t: { quote_id: string }) => t.quote_id === raced.id)).toHaveLength(1);
  });

  it('is a 409 once the quote expired, and a 422 for a quote that is not the workspace\'s', async () => {
    const user = await createUser();
    const quote = (await askQuote(user.key)).body;
    await env.DB.prepare('UPDATE transfer_quotes SET expires_at = ? WHERE id = ?').bind(new Date(Date.now() - 1000).toISOString(), quote.id).run();
    const expired = expectError(await transferWith(user.key, { quote_id: quote.id }), 409, 'conflict');
    expect(expired.message).toContain('expired');
    const stranger = await createUser();
    const theirs = (await askQuote(stranger.key)).body;
    expectError(await transferWith(user.key, { quote_id: theirs.id }), 422, 'validation_failed');
    expect((await call('GET', '/v1/remit/transfers', { key: user.key })).body.data).toEqual([]);
    // Without a quote, the amount and currencies are required.
    const missing = expectError(await transferWith(user.key, {}), 422, 'validation_failed');
    expect(missing.details!.map((d) => d.path).sort()).toEqual(['source_amount', 'source_currency', 'target_currency']);
  });
});
