// Transfers paid out through Wise (§6 "Real payouts"): the payout provider setting, the calls the
// consumer makes to Wise's API (a local fake, test/transfers/fake-wise.ts), Wise's signed webhooks,
// the cron asking Wise when no webhook comes, and the production rule that nothing is paid out by
// a pretend provider.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idAsUuid } from '../../src/lib/ids';
import { TRANSFER_MAX_RETRIES, transferMessage } from '../../src/modules/transfers/message';
import { call, expectError, open } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { holdTransfersQueue, IBAN, sendTransfer } from '../helpers/transfers';
import { deliver, runScheduled } from '../helpers/worker';
import { fakeWise, type FakeWise, stateChange, WISE_PROFILE, WISE_TOKEN, wiseSigningKeys } from './fake-wise';

const QUEUE = 'workspace-transfers';
const DEAD_LETTERS = 'workspace-transfers-dlq';
const message = (transferId: string, attempts = 1) => ({ id: crypto.randomUUID(), body: transferMessage(transferId), attempts });
const getTransfer = async (key: string, id: string) => (await call('GET', `/v1/remit/transfers/${id}`, { key })).body;
const eventsOf = async (key: string, type: string) => (await call('GET', `/api/events?type=${type}&limit=100`, { key })).body.data as any[];

const keys = await wiseSigningKeys();
const withWiseKey = { ...env, WISE_WEBHOOK_PUBLIC_KEY: keys.publicKeyPem } as Env;

async function sendWebhook(body: string, signature?: string) {
  return open('https://workspace.test/webhooks/payouts/wise', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Signature-SHA256': signature ?? (await keys.sign(body)), 'X-Delivery-Id': crypto.randomUUID() },
    body,
  }, withWiseKey);
}

async function connectWise(user: TestUser) {
  const res = await call('PUT', '/api/workspace/payout-provider', { key: user.key, body: { provider: 'wise', api_token: WISE_TOKEN, profile_id: WISE_PROFILE } });
  expect(res.status).toBe(200);
  return res.body;
}

let wise: FakeWise;
let logs: string[];
beforeEach(async () => {
  holdTransfersQueue();
  wise = fakeWise();
  logs = [];
  for (const level of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation((...args) => void logs.push(args.map(String).join(' ')));
  await putRates({ EUR: 0.9213, GBP: 0.7871 });
});
afterEach(() => vi.restoreAllMocks());

/** A workspace paying out through Wise, with one transfer of USD 1,000.00 handed to Wise. */
async function transferWithWise() {
  const user = await createUser();
  await connectWise(user);
  const transfer = await sendTransfer(user.key, { reference: 'Invoice 7' });
  expect(transfer.provider).toBe('wise');
  const result = await deliver(QUEUE, [message(transfer.id)]);
  expect(result.explicitAcks).toHaveLength(1);
  return { user, transfer, wiseTransfer: wise.transfers.at(-1)! };
}

describe('the payout provider setting', () => {
  it('keeps the Wise token to itself and needs an admin', async () => {
    const user = await createUser();
    const connected = await connectWise(user);
    expect(connected).toEqual({ provider: 'wise', connected: true, token_last4: 'abcd', profile_id: WISE_PROFILE, webhook_url: 'https://workspace.test/webhooks/payouts/wise' });
    const read = await call('GET', '/api/workspace/payout-provider', { key: user.key });
    expect(read.body).toEqual(connected);
    expect(JSON.stringify(read.body)).not.toContain(WISE_TOKEN);
    expect(logs.join('\n')).not.toContain(WISE_TOKEN);
    const bad = await call('PUT', '/api/workspace/payout-provider', { key: user.key, body: { provider: 'wise', api_token: WISE_TOKEN, profile_id: 'not-a-number' } });
    expectError(bad, 422, 'validation_failed');
    expect((await call('DELETE', '/api/workspace/payout-provider', { key: user.key })).status).toBe(204);
    expect((await call('GET', '/api/workspace/payout-provider', { key: user.key })).body.connected).toBe(false);
  });

  it('pays nothing out through a pretend provider in production', async () => {
    const user = await createUser();
    const production = { ...env, PAYMENTS_SANDBOX: 'false' } as Env;
    const send = (path: string, method: string, body: unknown) =>
      open(`https://workspace.test${path}`, { method, headers: { Authorization: `Bearer ${user.key}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() }, body: JSON.stringify(body) }, production);
    const transfer = { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000, recipient: { name: 'Jonas Weber', country: 'DE', account: { iban: IBAN } } };
    const refused = await send('/v1/remit/transfer', 'POST', transfer);
    expect(refused.status).toBe(409);
    expect((await refused.json<any>()).error.code).toBe('payouts_not_configured');
    expect((await call('GET', '/v1/remit/transfers', { key: user.key })).body.data).toEqual([]);
    const sandbox = await send('/api/workspace/payout-provider', 'PUT', { provider: 'sandbox' });
    expect(sandbox.status).toBe(422);
    // With Wise connected, production sends.
    expect((await send('/api/workspace/payout-provider', 'PUT', { provider: 'wise', api_token: WISE_TOKEN, profile_id: WISE_PROFILE })).status).toBe(200);
    const sent = await send('/v1/remit/transfer', 'POST', transfer);
    expect(sent.status).toBe(202);
    expect((await sent.json<any>()).provider).toBe('wise');
  });
});

describe('a transfer paid out through Wise', () => {
  it('quotes, adds the recipient, creates the transfer keyed by our id and funds it from the balance, recording Wise\'s fee and rate', async () => {
    const { user, transfer, wiseTransfer } = await transferWithWise();
    expect(wise.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v3/profiles/${WISE_PROFILE}/quotes`,
      'POST /v1/accounts',
      'POST /v1/transfers',
      `POST /v3/profiles/${WISE_PROFILE}/transfers/${wiseTransfer.id}/payments`,
    ]);
    const [quote, account, created, funding] = wise.requests;
    expect(quote!.body).toMatchObject({ sourceCurrency: 'USD', targetCurrency: 'EUR', sourceAmount: 1000 });
    expect(account!.body).toMatchObject({ currency: 'EUR', type: 'iban', profile: Number(WISE_PROFILE), accountHolderName: 'Jonas Weber', details: { iban: IBAN } });
    expect(created!.body).toMatchObject({ targetAccount: wise.accounts[0].id, customerTransactionId: idAsUuid(transfer.id), details: { reference: 'Invoice 7' } });
    expect(created!.body.customerTransactionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(funding!.body).toEqual({ type: 'BALANCE' });
    expect(wise.requests.every((r) => r.headers.authorization === `Bearer ${WISE_TOKEN}`)).toBe(true);

    const sent = await getTransfer(user.key, transfer.id);
    expect(sent).toMatchObject({ status: 'processing', provider: 'wise', provider_transfer_id: String(wiseTransfer.id), fee: 450, rate: '0.92', target_amount: 91486 });
  });

  it('makes one Wise transfer when the message arrives twice, and when Wise\'s answer was lost', async () => {
    const { user, transfer } = await transferWithWise();
    await deliver(QUEUE, [message(transfer.id, 2)]);
    expect(wise.transfers).toHaveLength(1);
    expect(wise.requests.filter((r) => r.path === '/v1/transfers')).toHaveLength(1);

    // Wise makes the transfer but its answer never arrives: the retry asks again with the same
    // customerTransactionId, gets the same transfer, and funds it once.
    const other = await sendTransfer(user.key);
    wise.mode = 'lose-transfer-answer';
    const first = await deliver(QUEUE, [message(other.id)]);
    expect(first.retryMessages).toHaveLength(1);
    await deliver(QUEUE, [message(other.id, 2)]);
    const made = wise.transfers.filter((t) => t.customerTransactionId === idAsUuid(other.id));
    expect(made).toHaveLength(1);
    expect(made[0]!.fundings).toBe(1);
    expect((await getTransfer(user.key, other.id)).provider_transfer_id).toBe(String(made[0]!.id));

    // Wise takes the money but the funding's answer is lost: the retry asks Wise where the
    // transfer stands, and does not fund it again.
    const third = await sendTransfer(user.key);
    wise.mode = 'lose-funding-answer';
    expect((await deliver(QUEUE, [message(third.id)])).retryMessages).toHaveLength(1);
    await deliver(QUEUE, [message(third.id, 2)]);
    const funded = wise.transfers.find((t) => t.customerTransactionId === idAsUuid(third.id))!;
    expect(funded.fundings).toBe(1);
    expect(await getTransfer(user.key, third.id)).toMatchObject({ status: 'processing', provider_transfer_id: String(funded.id) });
  });

  it('retries with backoff while Wise is down, then fails with a reason and sends nothing', async () => {
    const user = await createUser();
    await connectWise(user);
    const transfer = await sendTransfer(user.key);
    wise.mode = 'down';
    const first = await deliver(QUEUE, [message(transfer.id)]);
    const later = await deliver(QUEUE, [message(transfer.id, 3)]);
    expect(first.retryMessages[0]!.delaySeconds).toBeGreaterThan(0);
    expect(later.retryMessages[0]!.delaySeconds).toBeGreaterThan(first.retryMessages[0]!.delaySeconds!);
    expect((await getTransfer(user.key, transfer.id)).status).toBe('processing');
    await deliver(DEAD_LETTERS, [message(transfer.id, TRANSFER_MAX_RETRIES + 1)]);
    const failed = await getTransfer(user.key, transfer.id);
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toContain('Wise did not answer');
    expect(failed.failure_reason).toContain('no money was sent');
    expect(wise.transfers).toEqual([]);
    expect(await eventsOf(user.key, 'transfer.failed')).toHaveLength(1);
  });

  it('fails with Wise\'s reason when the balance cannot fund it', async () => {
    const user = await createUser();
    await connectWise(user);
    const transfer = await sendTransfer(user.key);
    wise.mode = 'insufficient';
    await deliver(QUEUE, [message(transfer.id)]);
    const failed = await getTransfer(user.key, transfer.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('insufficient_funds') });
  });
});

describe('Wise\'s state webhooks', () => {
  it('refuses a bad signature with 400 and changes nothing', async () => {
    const { user, transfer, wiseTransfer } = await transferWithWise();
    const before = await getTransfer(user.key, transfer.id);
    const body = stateChange(wiseTransfer.id, 'outgoing_payment_sent');
    const forged = await sendWebhook(body, await keys.sign(stateChange(wiseTransfer.id, 'cancelled')));
    expect(forged.status).toBe(400);
    expect((await forged.json<any>()).error.code).toBe('invalid_signature');
    const unsigned = await open('https://workspace.test/webhooks/payouts/wise', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }, withWiseKey);
    expect(unsigned.status).toBe(400);
    const otherKey = await wiseSigningKeys();
    expect((await sendWebhook(body, await otherKey.sign(body))).status).toBe(400);
    expect(await getTransfer(user.key, transfer.id)).toEqual(before);
    expect(await eventsOf(user.key, 'transfer.completed')).toEqual([]);
  });

  it('completes on outgoing_payment_sent, once however often it is told', async () => {
    const { user, transfer, wiseTransfer } = await transferWithWise();
    expect((await sendWebhook(stateChange(wiseTransfer.id, 'processing', 'incoming_payment_waiting'))).status).toBe(200);
    expect((await getTransfer(user.key, transfer.id)).status).toBe('processing');
    const body = stateChange(wiseTransfer.id, 'outgoing_payment_sent');
    const firstAnswer = await sendWebhook(body);
    expect(await firstAnswer.json()).toEqual({ status: 'ok', outcome: 'settled' });
    expect((await sendWebhook(body)).status).toBe(200);
    const done = await getTransfer(user.key, transfer.id);
    expect(done.status).toBe('completed');
    expect(done.status_history.map((h: { status: string }) => h.status)).toEqual(['pending', 'processing', 'completed']);
    const events = await eventsOf(user.key, 'transfer.completed');
    expect(events.map((e) => e.data.object)).toEqual([done]);
  });

  for (const [state, words] of [['cancelled', 'cancelled'], ['funds_refunded', 'refunded'], ['bounced_back', 'sent the payment back']] as const) {
    it(`fails on ${state}, with Wise's reason`, async () => {
      const { user, transfer, wiseTransfer } = await transferWithWise();
      expect((await sendWebhook(stateChange(wiseTransfer.id, state))).status).toBe(200);
      const failed = await getTransfer(user.key, transfer.id);
      expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining(words) });
      expect(await eventsOf(user.key, 'transfer.failed')).toHaveLength(1);
    });
  }

  it('is not there without Wise\'s public key', async () => {
    const body = stateChange(1, 'outgoing_payment_sent');
    const res = await open('https://workspace.test/webhooks/payouts/wise', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Signature-SHA256': await keys.sign(body) }, body });
    expect(res.status).toBe(404);
  });
});

describe('the cron, when no webhook comes', () => {
  it('asks Wise about transfers in flight and settles the ended ones', async () => {
    const { user, transfer, wiseTransfer } = await transferWithWise();
    await runScheduled();
    expect((await getTransfer(user.key, transfer.id)).status).toBe('processing');
    wiseTransfer.status = 'outgoing_payment_sent';
    await runScheduled();
    expect((await getTransfer(user.key, transfer.id)).status).toBe('completed');
    expect(wise.requests.filter((r) => r.method === 'GET' && r.path === `/v1/transfers/${wiseTransfer.id}`).length).toBeGreaterThanOrEqual(2);
    // A late webhook after the cron changes nothing.
    await sendWebhook(stateChange(wiseTransfer.id, 'outgoing_payment_sent'));
    expect(await eventsOf(user.key, 'transfer.completed')).toHaveLength(1);
  });
});

describe('the whole account number', () => {
  it('is in no read, event, log line or webhook delivery: only in the request that pays it out', async () => {
    const user = await createUser();
    await connectWise(user);
    const endpoint = await call('POST', '/api/webhook-endpoints', { key: user.key, body: { url: 'https://hooks.example.com/workspace', events: ['*'] } });
    expect(endpoint.status).toBe(201);
    const local = await sendTransfer(user.key, { target_currency: 'GBP', recipient: { name: 'Amy Pond', country: 'GB', account: { account_number: '31926819', bank_code: '601613' } } });
    const iban = await sendTransfer(user.key);
    expect(iban.recipient.account).toEqual({ iban_last4: IBAN.slice(-4), country: 'DE' });
    expect(local.recipient.account).toEqual({ account_number_last4: '6819', bank_code: '601613' });
    await deliver(QUEUE, [message(local.id), message(iban.id)]);
    await sendWebhook(stateChange(wise.transfers[0]!.id, 'outgoing_payment_sent'));
    await sendWebhook(stateChange(wise.transfers[1]!.id, 'bounced_back'));
    await runScheduled();

    const seen = JSON.stringify([
      (await call('GET', '/v1/remit/transfers', { key: user.key })).body,
      await getTransfer(user.key, local.id),
      await getTransfer(user.key, iban.id),
      (await call('GET', '/api/events?limit=100', { key: user.key })).body,
      (await call('GET', `/api/webhook-endpoints/${endpoint.body.id}/deliveries`, { key: user.key })).body,
      logs,
      wise.elsewhere,
    ]);
    expect(seen).toContain('6819');
    for (const whole of [IBAN, '31926819']) expect(seen).not.toContain(whole);
    // Events are what webhooks deliver: each transfer event carries the masked recipient.
    const events = (await call('GET', '/api/events?limit=100', { key: user.key })).body.data.filter((e: any) => e.type.startsWith('transfer.'));
    expect(events.length).toBeGreaterThanOrEqual(6);
    // Wise alone was given the whole numbers, to pay them.
    expect(JSON.stringify(wise.accounts)).toContain('31926819');
    expect(JSON.stringify(wise.accounts)).toContain(IBAN);
  });

  it('nor the Wise token, when Wise\'s refusal echoes them: the reason keeps their last four', async () => {
    const user = await createUser();
    await connectWise(user);
    const transfer = await sendTransfer(user.key);
    wise.mode = 'refuse-account';
    await deliver(QUEUE, [message(transfer.id)]);
    const failed = await getTransfer(user.key, transfer.id);
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toContain(`…${IBAN.slice(-4)} is not valid for …${WISE_TOKEN.slice(-4)}`);
    const seen = JSON.stringify([failed, (await call('GET', '/api/events?limit=100', { key: user.key })).body, logs]);
    for (const whole of [IBAN, WISE_TOKEN]) expect(seen).not.toContain(whole);
    expect(seen.replace(/\s/g, '')).not.toContain(IBAN);
  });
});
