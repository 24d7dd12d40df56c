import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffSeconds, consumeTransfers } from '../../src/modules/transfers/consumer';
import { type PayoutProvider, sandboxProvider, TransientPayoutError } from '../../src/modules/transfers/payout-provider';
import { call, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createUser } from '../helpers/factories';
import { mockUpstream, putRates, upstreamAnswer } from '../helpers/rates';
import { recipient, sendTransfer } from '../helpers/transfers';
import { deliver, runScheduled } from '../helpers/worker';

const QUEUE = 'workspace-transfers';
const message = (transferId: string, attempts = 1) => ({ id: crypto.randomUUID(), body: { transfer_id: transferId }, attempts });

/** Runs the consumer with a given provider, answering what it acked and retried. */
async function consumeWith(provider: PayoutProvider, messages: ReturnType<typeof message>[]) {
  const batch = createMessageBatch(QUEUE, messages.map((m) => ({ ...m, timestamp: new Date() })));
  const ctx = createExecutionContext();
  await consumeTransfers(batch, env, provider);
  return getQueueResult(batch, ctx);
}

function countingProvider(behaviour: (call: number) => Promise<Awaited<ReturnType<PayoutProvider['payout']>>>) {
  const calls: string[] = [];
  const provider: PayoutProvider = {
    name: 'double',
    payout: async (request) => {
      calls.push(request.idempotencyKey);
      return behaviour(calls.length);
    },
  };
  return { provider, calls };
}

const getTransfer = async (key: string, id: string) => (await call('GET', `/v1/remit/transfers/${id}`, { key })).body;

describe('a transfer on the queue', () => {
  beforeEach(async () => {
    await putRates({ EUR: 0.9213, GBP: 0.7871 });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('completes through the sandbox, step by step, with an event for each step', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const result = await deliver(QUEUE, [message(transfer.id)]);
    expect(result.explicitAcks).toHaveLength(1);
    const done = await getTransfer(user.key, transfer.id);
    expect(done.status).toBe('completed');
    expect(done.status_history.map((h: { status: string }) => h.status)).toEqual(['pending', 'processing', 'completed']);
    const events = (await call('GET', '/api/events?limit=100', { key: user.key })).body.data.filter((e: { type: string }) => e.type.startsWith('transfer.')).reverse();
    expect(events.map((e: { type: string; actor: unknown }) => [e.type, e.actor])).toEqual([
      ['transfer.created', { type: 'user', id: user.id, name: 'Test User' }],
      ['transfer.processing', { type: 'system', id: null, name: 'transfers' }],
      ['transfer.completed', { type: 'system', id: null, name: 'transfers' }],
    ]);
    expect(events.at(-1).data.object).toEqual(done);
  });

  it('fails a sandbox recipient named FAIL, with a reason', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key, { recipient: recipient('FAIL Industries') });
    await deliver(QUEUE, [message(transfer.id)]);
    const failed = await getTransfer(user.key, transfer.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('rejected') });
  });

  it('pays once when the same message arrives twice', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const { provider, calls } = countingProvider(async () => ({ status: 'completed', payoutId: 'po_1' }));
    const first = await consumeWith(provider, [message(transfer.id), message(transfer.id)]);
    const second = await consumeWith(provider, [message(transfer.id)]);
    expect(calls).toEqual([transfer.id]);
    expect(first.explicitAcks).toHaveLength(2);
    expect(second.explicitAcks).toHaveLength(1);
    expect((await getTransfer(user.key, transfer.id)).status_history).toHaveLength(3);
    const completed = (await call('GET', '/api/events?type=transfer.completed', { key: user.key })).body.data;
    expect(completed).toHaveLength(1);
  });

  it('retries a transient provider failure with backoff, then completes', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const { provider, calls } = countingProvider(async (n) => {
      if (n === 1) throw new TransientPayoutError('provider timed out');
      return { status: 'completed', payoutId: 'po_2' };
    });
    const first = await consumeWith(provider, [message(transfer.id, 1)]);
    expect(first.retryMessages).toHaveLength(1);
    // Backoff doubles with each attempt: 10 s, 20 s, 40 s … capped at 5 minutes.
    expect([1, 2, 3, 10].map(backoffSeconds)).toEqual([10, 20, 40, 300]);
    expect((await getTransfer(user.key, transfer.id)).status).toBe('processing');
    const second = await consumeWith(provider, [message(transfer.id, 2)]);
    expect(second.explicitAcks).toHaveLength(1);
    expect(calls).toEqual([transfer.id, transfer.id]); // same idempotency key both times
    expect((await getTransfer(user.key, transfer.id)).status).toBe('completed');
  });

  it('waits while another delivery holds the transfer, and takes over after a crash', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const { provider, calls } = countingProvider(async () => ({ status: 'completed', payoutId: 'po_3' }));
    const lease = new Date(Date.now() + 30_000).toISOString();
    await env.DB.prepare("UPDATE transfers SET status = 'processing', lease_until = ? WHERE id = ?").bind(lease, transfer.id).run();
    const held = await consumeWith(provider, [message(transfer.id)]);
    expect(held.retryMessages).toHaveLength(1);
    expect(calls).toEqual([]);
    // The holder crashed: its lease ran out.
    await env.DB.prepare('UPDATE transfers SET lease_until = ? WHERE id = ?').bind(new Date(Date.now() - 1_000).toISOString(), transfer.id).run();
    await consumeWith(provider, [message(transfer.id)]);
    expect(calls).toEqual([transfer.id]);
    expect((await getTransfer(user.key, transfer.id)).status).toBe('completed');
  });

  it('is marked failed when its retries run out (dead-letter queue)', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    await deliver('workspace-transfers-dlq', [message(transfer.id, 6)]);
    const failed = await getTransfer(user.key, transfer.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('no money was sent') });
    // A late duplicate changes nothing.
    await deliver(QUEUE, [message(transfer.id)]);
    expect((await getTransfer(user.key, transfer.id)).status).toBe('failed');
  });

  it('drops a malformed message instead of retrying it forever', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await deliver(QUEUE, [{ id: 'm1', body: { transfer_id: 'nope' } }]);
    expect(result.explicitAcks).toEqual(['m1']);
  });
});

describe('cancelling', () => {
  beforeEach(() => putRates({ EUR: 0.9213 }));

  it('works while pending, and then no payout happens', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const res = await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: user.key });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const spy = vi.spyOn(sandboxProvider, 'payout');
    await consumeWith(sandboxProvider, [message(transfer.id)]);
    expect(spy).not.toHaveBeenCalled();
    expectError(await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: user.key }), 409, 'invalid_state');
  });

  it('is refused once completed, and hidden from other users', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const transfer = await sendTransfer(user.key);
    await deliver(QUEUE, [message(transfer.id)]);
    expectError(await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: user.key }), 409, 'invalid_state');
    expectError(await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: other.key }), 404, 'not_found');
    expectError(await call('GET', `/v1/remit/transfers/${transfer.id}`, { key: other.key }), 404, 'not_found');
    expect((await call('GET', '/v1/remit/transfers', { key: other.key })).body.data).toEqual([]);
    const mine = await call('GET', '/v1/remit/transfers?status=completed', { key: user.key });
    expect(mine.body.data.map((t: { id: string }) => t.id)).toEqual([transfer.id]);
  });
});

describe('money movement safety', () => {
  beforeEach(() => putRates({ EUR: 0.9213 }));
  afterEach(() => vi.restoreAllMocks());

  it('requires an Idempotency-Key, replays the same transfer for it, and refuses another body', async () => {
    const user = await createUser();
    const body = { source_currency: 'USD', target_currency: 'EUR', source_amount: 10_000, recipient: recipient() };
    expectError(await call('POST', '/v1/remit/transfer', { key: user.key, body }), 400, 'idempotency_key_required');
    const headers = { 'Idempotency-Key': 'rent-november' };
    const first = await call('POST', '/v1/remit/transfer', { key: user.key, body, headers });
    const again = await call('POST', '/v1/remit/transfer', { key: user.key, body, headers });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expectError(await call('POST', '/v1/remit/transfer', { key: user.key, body: { ...body, source_amount: 20_000 }, headers }), 422, 'idempotency_key_reused');
    expect((await call('GET', '/v1/remit/transfers', { key: user.key })).body.data).toHaveLength(1);
  });

  it('never strands a transfer whose enqueue failed: the cron sweeps it onto the queue', async () => {
    const user = await createUser();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const send = vi.spyOn(env.TRANSFERS_QUEUE, 'sendBatch').mockRejectedValueOnce(new Error('queue unavailable'));
    const transfer = await sendTransfer(user.key);
    expect(transfer.status).toBe('pending');
    const stored = await env.DB.prepare('SELECT enqueued_at FROM transfers WHERE id = ?').bind(transfer.id).first<{ enqueued_at: string | null }>();
    expect(stored!.enqueued_at).toBeNull();

    // Three minutes later the cron runs (its rates refresh answered by a mocked upstream).
    mockUpstream(() => Response.json(upstreamAnswer({ EUR: 0.9213 })));
    const past = new Date(Date.now() - 3 * 60_000).toISOString();
    await env.DB.prepare('UPDATE transfers SET created_at = ?, updated_at = ? WHERE id = ?').bind(past, past, transfer.id).run();
    await runScheduled();
    const sent = send.mock.calls.flatMap(([messages]) => [...messages].map((m) => (m.body as { transfer_id: string }).transfer_id));
    expect(sent).toContain(transfer.id);
    const swept = await env.DB.prepare('SELECT enqueued_at FROM transfers WHERE id = ?').bind(transfer.id).first<{ enqueued_at: string | null }>();
    expect(swept!.enqueued_at).not.toBeNull();
  });

  it('requires a key everywhere', async () => {
    await expectKeyRequired('GET', '/v1/remit/transfers');
    await expectKeyRequired('POST', '/v1/remit/transfer', {});
  });
});
