import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffSeconds, consumeTransfers } from '../../src/modules/transfers/consumer';
import { consumeTransferDeadLetters } from '../../src/modules/transfers/dead-letter';
import { TRANSFER_MAX_RETRIES, transferMessage } from '../../src/modules/transfers/message';
import { type PayoutProvider, sandboxProvider, TransientPayoutError } from '../../src/modules/transfers/payout-provider';
import { call, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createUser, workspaceWithEveryRole } from '../helpers/factories';
import { mockUpstream, putRates, upstreamAnswer } from '../helpers/rates';
import { holdTransfersQueue, recipient, sendTransfer } from '../helpers/transfers';
import { consumerMaxRetries, deliver, runScheduled } from '../helpers/worker';

const QUEUE = 'workspace-transfers';
const DEAD_LETTERS = 'workspace-transfers-dlq';
const message = (transferId: string, attempts = 1) => ({ id: crypto.randomUUID(), body: transferMessage(transferId), attempts });
const LAST_ATTEMPT = TRANSFER_MAX_RETRIES + 1;

/** Runs the consumer with a given provider, answering what it acked and retried. */
async function consumeWith(provider: PayoutProvider, messages: ReturnType<typeof message>[]) {
  const batch = createMessageBatch(QUEUE, messages.map((m) => ({ ...m, timestamp: new Date() })));
  const ctx = createExecutionContext();
  await consumeTransfers(batch, env, provider);
  return getQueueResult(batch, ctx);
}

async function consumeDeadLettersWith(provider: PayoutProvider, messages: ReturnType<typeof message>[]) {
  const batch = createMessageBatch(DEAD_LETTERS, messages.map((m) => ({ ...m, timestamp: new Date() })));
  await consumeTransferDeadLetters(batch, env, provider);
  return getQueueResult(batch, createExecutionContext());
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

type Event = { type: string; actor: unknown; data: { object: { id: string; status: string; failure_reason: string | null } } };
/** The workspace's events of one type, as its owner reads them. */
const eventsOf = async (key: string, type: string): Promise<Event[]> => (await call('GET', `/api/events?type=${type}&limit=100`, { key })).body.data;
const TRANSFERS_JOB = { type: 'system', id: null, name: 'transfers' };

// Every test delivers the messages itself, when it means to.
let queue: ReturnType<typeof holdTransfersQueue>;
beforeEach(() => {
  queue = holdTransfersQueue();
});
afterEach(() => vi.restoreAllMocks());

describe('a transfer on the queue', () => {
  beforeEach(async () => {
    await putRates({ EUR: 0.9213, GBP: 0.7871 });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it('completes through the sandbox, step by step, with one event for each step', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const result = await deliver(QUEUE, [message(transfer.id)]);
    expect(result.explicitAcks).toHaveLength(1);
    const done = await getTransfer(user.key, transfer.id);
    expect(done.status).toBe('completed');
    expect(done.status_history.map((h: { status: string }) => h.status)).toEqual(['pending', 'processing', 'completed']);
    // A redelivery after the end changes nothing and writes nothing.
    await deliver(QUEUE, [message(transfer.id, 2)]);
    expect(await getTransfer(user.key, transfer.id)).toEqual(done);

    const created = await eventsOf(user.key, 'transfer.created');
    const processing = await eventsOf(user.key, 'transfer.processing');
    const completed = await eventsOf(user.key, 'transfer.completed');
    expect([created, processing, completed].map((events) => events.length)).toEqual([1, 1, 1]);
    expect(created[0]!.actor).toEqual({ type: 'user', id: user.id, name: 'Test User' });
    expect(created[0]!.data.object).toEqual(transfer);
    expect(processing[0]!.actor).toEqual(TRANSFERS_JOB);
    expect(processing[0]!.data.object.status).toBe('processing');
    expect(completed[0]!.actor).toEqual(TRANSFERS_JOB);
    expect(completed[0]!.data.object).toEqual(done);
    expect(await eventsOf(user.key, 'transfer.failed')).toEqual([]);
  });

  it('fails a sandbox recipient named FAIL, with a reason', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key, { recipient: recipient('FAIL Industries') });
    await deliver(QUEUE, [message(transfer.id)]);
    const failed = await getTransfer(user.key, transfer.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('rejected') });
    const events = await eventsOf(user.key, 'transfer.failed');
    expect(events.map((e) => [e.actor, e.data.object])).toEqual([[TRANSFERS_JOB, failed]]);
    expect(await eventsOf(user.key, 'transfer.completed')).toEqual([]);
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
    expect(await eventsOf(user.key, 'transfer.processing')).toHaveLength(1);
    expect(await eventsOf(user.key, 'transfer.completed')).toHaveLength(1);
  });

  it('pays once and writes each event once when two deliveries of it run at the same time', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const { provider, calls } = countingProvider(async () => ({ status: 'completed', payoutId: 'po_1' }));
    await Promise.all([consumeWith(provider, [message(transfer.id)]), consumeWith(provider, [message(transfer.id)])]);
    await deliver(QUEUE, [message(transfer.id)]);
    expect(calls).toEqual([transfer.id]);
    expect((await getTransfer(user.key, transfer.id)).status).toBe('completed');
    expect(await eventsOf(user.key, 'transfer.processing')).toHaveLength(1);
    expect(await eventsOf(user.key, 'transfer.completed')).toHaveLength(1);
  });

  it('writes one completed event when a dead letter and a redelivery settle it at the same time', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    // A first delivery takes it to processing and gives up on a provider timeout.
    const timedOut: PayoutProvider = { name: 'down', payout: async () => { throw new TransientPayoutError('timed out'); } };
    await consumeWith(timedOut, [message(transfer.id)]);
    // Its dead letter asks the provider; while that call is out, a redelivery pays and finishes.
    const { provider, calls } = countingProvider(async (n) => {
      if (n === 1) await consumeWith(provider, [message(transfer.id, 2)]);
      return { status: 'completed', payoutId: 'po_1' };
    });
    await consumeDeadLettersWith(provider, [message(transfer.id, LAST_ATTEMPT)]);
    expect(calls).toEqual([transfer.id, transfer.id]); // the same idempotency key: paid once
    expect((await getTransfer(user.key, transfer.id)).status).toBe('completed');
    expect(await eventsOf(user.key, 'transfer.processing')).toHaveLength(1);
    expect(await eventsOf(user.key, 'transfer.completed')).toHaveLength(1);
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

  it('is marked failed when its retries run out (dead-letter queue), once', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    await deliver(DEAD_LETTERS, [message(transfer.id, LAST_ATTEMPT)]);
    const failed = await getTransfer(user.key, transfer.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('no money was sent') });
    // A late duplicate, on either queue, changes nothing.
    await deliver(DEAD_LETTERS, [message(transfer.id, LAST_ATTEMPT)]);
    await deliver(QUEUE, [message(transfer.id)]);
    expect(await getTransfer(user.key, transfer.id)).toEqual(failed);
    const events = await eventsOf(user.key, 'transfer.failed');
    expect(events.map((e) => [e.actor, e.data.object])).toEqual([[TRANSFERS_JOB, failed]]);
    expect(await eventsOf(user.key, 'transfer.processing')).toEqual([]);
  });

  it('drops a malformed message instead of retrying it forever', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await deliver(QUEUE, [{ id: 'm1', body: { transfer_id: 'nope' } }]);
    expect(result.explicitAcks).toEqual(['m1']);
  });
});

describe('cancelling', () => {
  beforeEach(() => putRates({ EUR: 0.9213 }));

  it('works while pending, once, and then no payout happens', async () => {
    const user = await createUser();
    const transfer = await sendTransfer(user.key);
    const res = await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: user.key });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const spy = vi.spyOn(sandboxProvider, 'payout');
    await consumeWith(sandboxProvider, [message(transfer.id)]);
    expect(spy).not.toHaveBeenCalled();
    expectError(await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: user.key }), 409, 'invalid_state');
    const events = await eventsOf(user.key, 'transfer.canceled');
    expect(events.map((e) => [e.actor, e.data.object])).toEqual([[{ type: 'user', id: user.id, name: 'Test User' }, res.body]]);
    expect(await eventsOf(user.key, 'transfer.processing')).toEqual([]);
  });

  it('is refused once completed, and another workspace\'s transfer is a 404', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const transfer = await sendTransfer(user.key);
    await deliver(QUEUE, [message(transfer.id)]);
    expectError(await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: user.key }), 409, 'invalid_state');
    expect(await eventsOf(user.key, 'transfer.canceled')).toEqual([]);
    expectError(await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: other.key }), 404, 'not_found');
    expectError(await call('GET', `/v1/remit/transfers/${transfer.id}`, { key: other.key }), 404, 'not_found');
    expect((await call('GET', '/v1/remit/transfers', { key: other.key })).body.data).toEqual([]);
    expect(await eventsOf(other.key, 'transfer.completed')).toEqual([]);
    const mine = await call('GET', '/v1/remit/transfers?status=completed', { key: user.key });
    expect(mine.body.data.map((t: { id: string }) => t.id)).toEqual([transfer.id]);
  });
});

describe('who may move money', () => {
  beforeEach(() => putRates({ EUR: 0.9213 }));

  it('admins send and cancel the workspace\'s transfers; members and viewers only read them', async () => {
    const team = await workspaceWithEveryRole();
    const body = { source_currency: 'USD', target_currency: 'EUR', source_amount: 10_000, recipient: recipient() };
    for (const role of ['member', 'viewer'] as const) {
      const res = await call('POST', '/v1/remit/transfer', { key: team[role].key, body, headers: { 'Idempotency-Key': crypto.randomUUID() } });
      expectError(res, 403, 'forbidden');
    }
    const transfer = await sendTransfer(team.admin.key);
    for (const role of ['member', 'viewer'] as const) {
      expectError(await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: team[role].key }), 403, 'forbidden');
      expect((await call('GET', `/v1/remit/transfers/${transfer.id}`, { key: team[role].key })).body).toEqual(transfer);
      expect((await call('GET', '/v1/remit/transfers', { key: team[role].key })).body.data).toEqual([transfer]);
    }
    const cancelled = await call('POST', `/v1/remit/transfers/${transfer.id}/cancel`, { key: team.owner.key });
    expect(cancelled.status).toBe(200);
    // The owner reads who did what: the admin sent it, the owner cancelled it.
    const actors = async (type: string) => (await eventsOf(team.owner.key, type)).map((e) => e.actor);
    expect(await actors('transfer.created')).toEqual([{ type: 'user', id: team.admin.id, name: 'A admin' }]);
    expect(await actors('transfer.canceled')).toEqual([{ type: 'user', id: team.owner.id, name: 'Owner' }]);
  });
});

describe('money movement safety', () => {
  beforeEach(() => putRates({ EUR: 0.9213 }));

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

  it('never strands a transfer whose enqueue failed: the cron sweeps it onto the queue, in every workspace', async () => {
    const users = [await createUser(), await createUser()];
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    queue.send.mockRejectedValueOnce(new Error('queue unavailable')).mockRejectedValueOnce(new Error('queue unavailable'));
    const transfers = [await sendTransfer(users[0]!.key), await sendTransfer(users[1]!.key)];
    const enqueuedAt = async (id: string) => (await env.DB.prepare('SELECT enqueued_at FROM transfers WHERE id = ?').bind(id).first<{ enqueued_at: string | null }>())!.enqueued_at;
    for (const transfer of transfers) {
      expect(transfer.status).toBe('pending');
      expect(await enqueuedAt(transfer.id)).toBeNull();
    }
    expect(queue.sent).toEqual([]);

    // Three minutes later the cron runs (its rates refresh answered by a mocked upstream).
    mockUpstream(() => Response.json(upstreamAnswer({ EUR: 0.9213 })));
    const past = new Date(Date.now() - 3 * 60_000).toISOString();
    for (const transfer of transfers) {
      await env.DB.prepare('UPDATE transfers SET created_at = ?, updated_at = ? WHERE id = ?').bind(past, past, transfer.id).run();
    }
    await runScheduled();
    expect(queue.sent.sort()).toEqual(transfers.map((t) => t.id).sort());
    for (const transfer of transfers) expect(await enqueuedAt(transfer.id)).not.toBeNull();
    // What the sweep enqueued goes through like any other message.
    await deliver(QUEUE, [message(transfers[0]!.id)]);
    expect((await getTransfer(users[0]!.key, transfers[0]!.id)).status).toBe('completed');
  });

  it('requires a key everywhere', async () => {
    await expectKeyRequired('GET', '/v1/remit/transfers');
    await expectKeyRequired('POST', '/v1/remit/transfer', {});
  });
});

describe('the queue settings', () => {
  it('retry as often as the code counts on (wrangler.toml, every environment)', () => {
    expect(consumerMaxRetries(QUEUE)).toEqual([TRANSFER_MAX_RETRIES, TRANSFER_MAX_RETRIES]);
  });
});
