// Delivery (§11): one attempt row per subscribed endpoint in the event's own batch, Standard
// Webhooks signatures a receiver verifies with the `standardwebhooks` package, the retry schedule,
// Retry-After, 410, the five-day rule, test, resend, recover, the sweep, and six at a time.
import { env } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consumeWebhooks, MAX_CONCURRENT_DELIVERIES } from '../../src/modules/webhooks/consumer';
import { RETRY_DELAYS_MS } from '../../src/modules/webhooks/schedule';
import { call, expectError } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import { runScheduled } from '../helpers/worker';
import { capturedQueue, createEndpoint, deliveriesOf, receiver, timePasses } from './helpers';

afterEach(() => vi.restoreAllMocks());

const headersOf = (h: Headers) => ({ 'webhook-id': h.get('webhook-id')!, 'webhook-timestamp': h.get('webhook-timestamp')!, 'webhook-signature': h.get('webhook-signature')! });

/** The SQL of every batch and every single statement run through the requests' D1 sessions. */
function recordSessionCalls() {
  const calls = { batches: [] as string[][], single: [] as string[] };
  const start = env.DB.withSession.bind(env.DB);
  vi.spyOn(env.DB, 'withSession').mockImplementation((constraint) => {
    const session = start(constraint);
    const batch = session.batch.bind(session);
    const prepare = session.prepare.bind(session);
    const sqlOf = new WeakMap<D1PreparedStatement, string>();
    session.batch = async (statements) => {
      calls.batches.push(statements.map((s) => sqlOf.get(s) ?? '?'));
      return batch(statements);
    };
    const track = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
      sqlOf.set(statement, sql);
      const bind = statement.bind.bind(statement);
      statement.bind = (...values) => track(bind(...values), sql);
      for (const run of ['run', 'all', 'raw', 'first'] as const) {
        const original = (statement[run] as (...args: unknown[]) => unknown).bind(statement);
        (statement as unknown as Record<string, unknown>)[run] = (...args: unknown[]) => (calls.single.push(sql), original(...args));
      }
      return statement;
    };
    session.prepare = (sql) => track(prepare(sql), sql);
    return session;
  });
  return calls;
}

describe('webhook delivery', () => {
  it('claims a write\'s deliveries in the write\'s own batch: after the answer, only the queue is called', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key, { events: ['client.created'] });
    const calls = recordSessionCalls();
    const res = await call('POST', '/v1/clients', { key: owner.key, body: { name: 'One Trip Ltd' } });
    const { batches, single } = { batches: [...calls.batches], single: [...calls.single] };
    expect(res.status).toBe(201);
    const [delivery] = await deliveriesOf(owner.key, endpoint.id);
    expect(queue.messages.map((m) => m.delivery_id)).toEqual([delivery!.id]);
    // One batch wrote the client, its event and the delivery, and claimed it; no statement of its own did.
    expect(batches).toHaveLength(1);
    expect(batches[0]!.at(-1)).toMatch(/^update "webhook_deliveries" set "enqueued_at"/);
    expect(single.filter((sql) => sql.includes('webhook_deliveries'))).toEqual([]);
  });

  it('claims only in the batches from the write\'s event on: the reads before it carry no claim', async () => {
    capturedQueue();
    const owner = await createUser();
    await createEndpoint(owner.key, { events: ['invoice.created'] });
    const client = await createClient(owner.key, { name: 'Two Trips Ltd' });
    const calls = recordSessionCalls();
    const res = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [{ description: 'Design work', quantity: 1, unit_amount: 1250 }] } });
    expect(res.status).toBe(201);
    const claims = (batch: string[]) => batch.filter((sql) => sql.startsWith('update "webhook_deliveries" set "enqueued_at"')).length;
    // The client and the workspace are read first, then one batch writes the invoice and its event.
    expect(calls.batches).toHaveLength(2);
    expect(claims(calls.batches[0]!)).toBe(0);
    expect(claims(calls.batches[1]!)).toBe(1);
    expect(calls.batches[1]!.at(-1)).toMatch(/^update "webhook_deliveries" set "enqueued_at"/);
  });

  it('posts each event to every subscribed endpoint, signed so a Standard Webhooks receiver verifies it', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const all = await createEndpoint(owner.key, { url: 'https://all.example.com/in', events: ['*'] });
    const clientsOnly = await createEndpoint(owner.key, { url: 'https://crm.example.com/in', events: ['client.created'] });
    const invoicesOnly = await createEndpoint(owner.key, { url: 'https://books.example.com/in', events: ['invoice.paid'] });
    const received = receiver();

    const client = await createClient(owner.key, { name: 'Initech' });
    // The event's batch wrote one attempt for each subscribed endpoint, and the write dispatched them.
    expect(queue.messages).toHaveLength(2);
    expect(await deliveriesOf(owner.key, invoicesOnly.id)).toEqual([]);
    await queue.drain();

    expect(received.map((r) => r.url).sort()).toEqual(['https://all.example.com/in', 'https://crm.example.com/in']);
    for (const r of received) {
      const secret = r.url.includes('crm') ? clientsOnly.secret : all.secret;
      const event = new Webhook(secret).verify(r.body, headersOf(r.headers)) as { id: string; type: string; data: { object: { id: string } } };
      expect(event).toMatchObject({ type: 'client.created', data: { object: { id: client.id, name: 'Initech' } } });
      expect(r.headers.get('webhook-id')).toBe(event.id);
      expect(r.headers.get('content-type')).toBe('application/json');
    }
    // A tampered body, another secret, or an old timestamp does not verify.
    const [first] = received;
    expect(() => new Webhook(all.secret).verify(first!.body.replace('Initech', 'Initrode'), headersOf(first!.headers))).toThrow();
    expect(() => new Webhook(invoicesOnly.secret).verify(first!.body, headersOf(first!.headers))).toThrow();
    const old = { ...headersOf(first!.headers), 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(() => new Webhook(all.secret).verify(first!.body, old)).toThrow();

    const log = await deliveriesOf(owner.key, all.id);
    expect(log).toEqual([expect.objectContaining({ event_type: 'client.created', attempt: 1, status: 'succeeded', response_status: 200, next_attempt_at: null })]);
    // A duplicate message changes nothing and sends nothing.
    await queue.messages.push({ delivery_id: log[0]!.id });
    await queue.drain();
    expect(received).toHaveLength(2);
  });

  it('signs with both secrets while a rotation overlaps, and with the new one after', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const rotated = (await call('POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: owner.key, body: {} })).body;
    const received = receiver();
    await createClient(owner.key);
    await queue.drain();
    const signed = received[0]!;
    expect(signed.headers.get('webhook-signature')!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(signed.body, headersOf(signed.headers))).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(signed.body, headersOf(signed.headers))).not.toThrow();

    const again = (await call('POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: owner.key, body: { expire_previous_in_hours: 0 } })).body;
    await createClient(owner.key);
    await queue.drain();
    const only = received[1]!;
    expect(only.headers.get('webhook-signature')!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(again.secret).verify(only.body, headersOf(only.headers))).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(only.body, headersOf(only.headers))).toThrow();
  });

  it('retries a failed attempt on the schedule, with the same webhook-id, and logs every attempt', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const received = receiver((_r, n) => (n < 3 ? new Response('upstream down', { status: 503 }) : new Response('ok')));
    await createClient(owner.key);
    await queue.drain();

    let log = await deliveriesOf(owner.key, endpoint.id);
    expect(log.map((d) => [d.attempt, d.status])).toEqual([[2, 'pending'], [1, 'failed']]);
    const failed = log[1]!;
    expect(failed).toMatchObject({ response_status: 503, error: 'The endpoint answered 503.' });
    // 5 s plus up to 20 % jitter.
    const delay = Date.parse(log[0]!.next_attempt_at!) - Date.parse(failed.created_at);
    expect(delay).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]!);
    expect(delay).toBeLessThanOrEqual(RETRY_DELAYS_MS[0]! * 1.2 + 2000);
    expect(queue.messages).toEqual([{ delivery_id: log[0]!.id, delaySeconds: expect.any(Number) }]);
    expect(queue.messages[0]!.delaySeconds).toBeGreaterThanOrEqual(5);

    // A message that arrives early waits for its attempt.
    await queue.drain();
    expect(received).toHaveLength(1);

    await timePasses(endpoint.id);
    queue.messages.push({ delivery_id: log[0]!.id });
    await queue.drain();
    log = await deliveriesOf(owner.key, endpoint.id);
    expect(log.map((d) => [d.attempt, d.status])).toEqual([[3, 'pending'], [2, 'failed'], [1, 'failed']]);
    // The second delay is 5 minutes (plus jitter).
    const second = Date.parse(log[0]!.next_attempt_at!) - Date.now();
    expect(second).toBeGreaterThan(RETRY_DELAYS_MS[1]! - 5000);
    expect(second).toBeLessThanOrEqual(RETRY_DELAYS_MS[1]! * 1.2);

    await timePasses(endpoint.id);
    queue.messages.push({ delivery_id: log[0]!.id });
    await queue.drain();
    expect((await deliveriesOf(owner.key, endpoint.id))[0]).toMatchObject({ attempt: 3, status: 'succeeded' });
    expect(new Set(received.map((r) => r.headers.get('webhook-id'))).size).toBe(1);
  });

  it('waits as long as Retry-After says, up to 10 hours', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    receiver(() => new Response('slow down', { status: 429, headers: { 'Retry-After': '120' } }));
    await createClient(owner.key);
    await queue.drain();
    const next = (await deliveriesOf(owner.key, endpoint.id))[0]!;
    const wait = Date.parse(next.next_attempt_at!) - Date.now();
    expect(wait).toBeGreaterThan(110_000);
    expect(wait).toBeLessThanOrEqual(120_000);
  });

  it('waits at least 5 seconds whatever Retry-After says: 0, or a date already past', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const retryAfter = ['0', new Date(Date.now() - 60_000).toUTCString()];
    receiver((_, n) => new Response('busy', { status: 503, headers: { 'Retry-After': retryAfter[n - 1]! } }));
    await createClient(owner.key);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await queue.drain();
      const next = (await deliveriesOf(owner.key, endpoint.id))[0]!;
      expect(next).toMatchObject({ attempt: attempt + 1, status: 'pending' });
      // Written as now + 5 s when the answer came; read a moment later.
      expect(Date.parse(next.next_attempt_at!) - Date.parse(next.created_at)).toBeGreaterThanOrEqual(5000);
      expect(queue.messages.at(-1)!.delaySeconds).toBeGreaterThanOrEqual(5);
      await timePasses(endpoint.id);
    }
  });

  it('caps Retry-After at 10 hours and reads it as an HTTP date too', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const retryAfter = ['86400', new Date(Date.now() + 3 * 3_600_000).toUTCString()];
    receiver((_, n) => new Response('busy', { status: 503, headers: { 'Retry-After': retryAfter[n - 1]! } }));
    await createClient(owner.key);
    await queue.drain();
    const waitOf = async () => Date.parse((await deliveriesOf(owner.key, endpoint.id))[0]!.next_attempt_at!) - Date.now();
    expect(await waitOf()).toBeGreaterThan(10 * 3_600_000 - 10_000);
    expect(await waitOf()).toBeLessThanOrEqual(10 * 3_600_000);
    await timePasses(endpoint.id);
    queue.messages.push({ delivery_id: (await deliveriesOf(owner.key, endpoint.id))[0]!.id });
    await queue.drain();
    // An HTTP date three hours ahead (whole seconds, so up to a second less).
    expect(await waitOf()).toBeGreaterThan(3 * 3_600_000 - 10_000);
    expect(await waitOf()).toBeLessThanOrEqual(3 * 3_600_000);
  });

  it('counts a redirect as a failed attempt without following it, and keeps only the first 1024 bytes of an answer', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const received = receiver((_, n) =>
      n === 1 ? new Response(null, { status: 301, headers: { Location: 'https://elsewhere.example.com/' } }) : new Response('x'.repeat(5000), { status: 500 }),
    );
    await createClient(owner.key);
    await queue.drain();
    expect(received.map((r) => r.url)).toEqual([endpoint.url]);
    // The log is newest first: the next attempt waits above the failed one.
    const [next, first] = await deliveriesOf(owner.key, endpoint.id);
    expect(first).toMatchObject({ attempt: 1, status: 'failed', response_status: 301 });
    await timePasses(endpoint.id);
    queue.messages.push({ delivery_id: next!.id });
    await queue.drain();
    const second = (await deliveriesOf(owner.key, endpoint.id)).find((d) => d.attempt === 2);
    expect(second).toMatchObject({ status: 'failed', response_status: 500, response_body: 'x'.repeat(1024) });
  });

  it('checks the URL again before each attempt: one that became a private address gets no request', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const received = receiver();
    await createClient(owner.key);
    // Changed behind the API's back (an older rule, a row restored from a backup): 10.0.0.8 is private.
    await env.DB.prepare('UPDATE webhook_endpoints SET url = ? WHERE id = ?').bind('https://10.0.0.8/hook', endpoint.id).run();
    await queue.drain();
    expect(received).toEqual([]);
    const attempt = (await deliveriesOf(owner.key, endpoint.id)).find((d) => d.attempt === 1);
    expect(attempt).toMatchObject({ status: 'failed', response_status: null });
    expect(attempt!.error).toMatch(/no longer allowed/);
  });

  it('stops after 8 attempts', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const received = receiver(() => new Response('no', { status: 500 }));
    await createClient(owner.key);
    await queue.drain();
    for (let i = 0; i < 7; i++) {
      await timePasses(endpoint.id);
      const [pending] = await deliveriesOf(owner.key, endpoint.id);
      queue.messages.splice(0);
      queue.messages.push({ delivery_id: pending!.id });
      await queue.drain();
    }
    const log = await deliveriesOf(owner.key, endpoint.id);
    expect(received).toHaveLength(8);
    expect(log).toHaveLength(8);
    expect(log[0]).toMatchObject({ attempt: 8, status: 'failed', next_attempt_at: null });
    expect(queue.messages).toEqual([]);
  });

  it('disables an endpoint at once on 410, and after five days of nothing but failures', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const gone = await createEndpoint(owner.key, { url: 'https://gone.example.com/' });
    const failing = await createEndpoint(owner.key, { url: 'https://failing.example.com/' });
    receiver((r) => (r.url.includes('gone') ? new Response('gone', { status: 410 }) : new Response('err', { status: 500 })));
    await env.DB.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?').bind(new Date(Date.now() - 5 * 86_400_000 - 60_000).toISOString(), failing.id).run();
    await createClient(owner.key);
    await queue.drain();
    expect((await call('GET', `/api/webhook-endpoints/${gone.id}`, { key: owner.key })).body).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    expect((await call('GET', `/api/webhook-endpoints/${failing.id}`, { key: owner.key })).body).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });
    expect((await deliveriesOf(owner.key, gone.id))[0]).toMatchObject({ status: 'failed', response_status: 410, next_attempt_at: null });
    // A disabled endpoint receives nothing new; re-enabled, it does again.
    await createClient(owner.key);
    expect(queue.messages).toEqual([]);
    expect((await deliveriesOf(owner.key, gone.id))).toHaveLength(1);
    expectError(await call('POST', `/api/webhook-endpoints/${gone.id}/test`, { key: owner.key }), 409, 'invalid_state');
    await call('PATCH', `/api/webhook-endpoints/${gone.id}`, { key: owner.key, body: { status: 'enabled' } });
    await createClient(owner.key);
    expect(queue.messages).toHaveLength(1);
  });

  it('resets the five days on any success', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    await env.DB.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?').bind(new Date(Date.now() - 4 * 86_400_000).toISOString(), endpoint.id).run();
    receiver();
    await createClient(owner.key);
    await queue.drain();
    const row = await env.DB.prepare('SELECT failing_since FROM webhook_endpoints WHERE id = ?').bind(endpoint.id).first<{ failing_since: string | null }>();
    expect(row!.failing_since).toBeNull();
  });

  it('sends a test event on demand, logged in the deliveries but not in /api/events', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key, { events: ['invoice.paid'] });
    const received = receiver();
    const res = await call('POST', `/api/webhook-endpoints/${endpoint.id}/test`, { key: owner.key });
    expect(res.status).toBe(202);
    await queue.drain();
    const event = new Webhook(endpoint.secret).verify(received[0]!.body, headersOf(received[0]!.headers)) as { type: string };
    expect(event.type).toBe('webhook.test');
    expect(await deliveriesOf(owner.key, endpoint.id)).toEqual([expect.objectContaining({ id: res.body.delivery_id, event_type: 'webhook.test', status: 'succeeded' })]);
    expect((await call('GET', '/api/events?type=client.created', { key: owner.key })).body.data).toEqual([]);
    expect(JSON.stringify((await call('GET', '/api/events?limit=100', { key: owner.key })).body)).not.toContain('webhook.test');
  });

  it('resends one event to an endpoint of the workspace, and refuses another workspace\'s', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key, { events: ['invoice.paid'] });
    const received = receiver();
    await createClient(owner.key);
    const event = (await call('GET', '/api/events?limit=1', { key: owner.key })).body.data[0];
    const resent = await call('POST', `/api/events/${event.id}/resend`, { key: owner.key, body: { endpoint_id: endpoint.id } });
    expect(resent.status).toBe(202);
    await queue.drain();
    expect(received[0]!.headers.get('webhook-id')).toBe(event.id);
    const stranger = await createUser();
    const theirs = await createEndpoint(stranger.key);
    const refused = await call('POST', `/api/events/${event.id}/resend`, { key: owner.key, body: { endpoint_id: theirs.id } });
    expectError(refused, 422, 'validation_failed');
    expect(refused.body.error.details[0].path).toBe('endpoint_id');
    expectError(await call('POST', `/api/events/${event.id}/resend`, { key: stranger.key, body: { endpoint_id: theirs.id } }), 404, 'not_found');
    expect(await deliveriesOf(stranger.key, theirs.id)).toEqual([]);
  });

  it('recovers every delivery that failed for good since a moment', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    let down = true;
    receiver(() => (down ? new Response('gone', { status: 410 }) : new Response('ok')));
    const since = new Date().toISOString();
    await createClient(owner.key);
    await queue.drain();
    // 410 disabled it; a re-enabled endpoint gets the failures again on request.
    expectError(await call('POST', `/api/webhook-endpoints/${endpoint.id}/recover`, { key: owner.key, body: { since } }), 409, 'invalid_state');
    await call('PATCH', `/api/webhook-endpoints/${endpoint.id}`, { key: owner.key, body: { status: 'enabled' } });
    down = false;
    const recovered = await call('POST', `/api/webhook-endpoints/${endpoint.id}/recover`, { key: owner.key, body: { since } });
    expect(recovered).toMatchObject({ status: 202, body: { count: 1 } });
    await queue.drain();
    expect((await deliveriesOf(owner.key, endpoint.id))[0]).toMatchObject({ status: 'succeeded', attempt: 1 });
    // Nothing is left to recover.
    expect((await call('POST', `/api/webhook-endpoints/${endpoint.id}/recover`, { key: owner.key, body: { since } })).body.count).toBe(0);
  });

  it('loses nothing when a message is lost: the cron sweep sends what is due', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    const received = receiver();
    await createClient(owner.key);
    queue.messages.splice(0); // the message is lost
    expect(await deliveriesOf(owner.key, endpoint.id)).toEqual([expect.objectContaining({ status: 'pending' })]);
    // Not yet overdue: the sweep leaves it.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await runScheduled();
    expect(queue.messages).toEqual([]);
    await env.DB.prepare('UPDATE webhook_deliveries SET next_attempt_at = ?, enqueued_at = ? WHERE endpoint_id = ?')
      .bind(new Date(Date.now() - 5 * 60_000).toISOString(), new Date(Date.now() - 5 * 60_000).toISOString(), endpoint.id).run();
    await runScheduled();
    expect(queue.messages).toHaveLength(1);
    await queue.drain();
    // (The cron's rates refresh asked the same stand-in; count only the webhook.)
    expect(received.filter((r) => r.url.startsWith('https://hooks.example.com'))).toHaveLength(1);
    expect((await deliveriesOf(owner.key, endpoint.id))[0]).toMatchObject({ status: 'succeeded' });
  });

  it('writes no delivery when the event\'s batch fails', async () => {
    capturedQueue();
    const owner = await createUser();
    const endpoint = await createEndpoint(owner.key);
    // The delivery's insert fails inside the event's batch: the client, its event and the delivery all roll back.
    await env.DB.prepare(`CREATE TRIGGER fail_delivery BEFORE INSERT ON webhook_deliveries BEGIN SELECT RAISE(ABORT, 'injected'); END`).run();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect((await call('POST', '/v1/clients', { key: owner.key, body: { name: 'Ghost' } })).status).toBe(500);
    } finally {
      await env.DB.prepare('DROP TRIGGER fail_delivery').run();
    }
    expect((await call('GET', '/v1/clients?q=Ghost', { key: owner.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/events?type=client.created', { key: owner.key })).body.data).toEqual([]);
    expect(await deliveriesOf(owner.key, endpoint.id)).toEqual([]);
  });

  it('runs at most six deliveries at once in one isolate', async () => {
    const queue = capturedQueue();
    const owner = await createUser();
    for (let i = 0; i < 10; i++) await createEndpoint(owner.key, { url: `https://r${i}.example.com/` });
    let inFlight = 0;
    let most = 0;
    receiver(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return new Response('ok');
    });
    await createClient(owner.key);
    expect(queue.messages).toHaveLength(10);
    const messages = queue.messages.splice(0).map((m, i) => ({ id: `c${i}`, timestamp: new Date(), attempts: 1, body: m, ack() {}, retry() {} }));
    await consumeWebhooks({ queue: 'workspace-webhooks', messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, env);
    expect(most).toBe(MAX_CONCURRENT_DELIVERIES);
  });
});
