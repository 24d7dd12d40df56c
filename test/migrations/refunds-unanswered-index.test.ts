// Migration 0025 on a database filled while refunds had no index for the unanswered ones: the partial
// index is added, no row changes, and the cron's ask-again reads through it.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { createDb } from '../../src/lib/db';
import { unansweredRefunds } from '../../src/modules/payments/refund-sweep';
import { fakeStripe, pressPay, sendEvent, sessionEvent, STRIPE_KEY, STRIPE_WEBHOOK_SECRET } from '../payments/fake-stripe';

const MIGRATION = 'refunds_unanswered_index';
const index = async () => (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'refunds_unanswered_idx'").all()).results;
const refundRows = async () => (await env.DB.prepare('SELECT * FROM refunds ORDER BY id').all()).results;

beforeAll(async () => {
  // The setup file migrated this database to the newest schema; the index is dropped and 0025 marked
  // as not yet applied, as 0024 left it.
  const migration = env.TEST_MIGRATIONS.filter((m) => m.name.includes(MIGRATION));
  expect(migration).toHaveLength(1);
  await env.DB.batch([env.DB.prepare('DROP INDEX refunds_unanswered_idx'), env.DB.prepare('DELETE FROM d1_migrations WHERE name = ?').bind(migration[0]!.name)]);
  // A refund Stripe made, and one it never answered.
  const stripe = fakeStripe();
  const owner = await createUser('Owner');
  const connected = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'stripe', secret_key: STRIPE_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } });
  const client = await createClient(owner.key, { email: 'ap@initech.example' });
  const draft = await createInvoice(owner.key, { client_id: client.id });
  const invoice = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } })).body;
  await pressPay(invoice.hosted_url);
  await sendEvent(connected.body.webhook_url, sessionEvent('checkout.session.completed', stripe.sessions.at(-1)!));
  const [payment] = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key: owner.key })).body.data;
  const path = `/v1/invoices/${invoice.id}/payments/${payment.id}/refunds`;
  expect((await call('POST', path, { key: owner.key, body: { amount: 1_000 } })).body.status).toBe('succeeded');
  stripe.mode = 'down';
  expect((await call('POST', path, { key: owner.key, body: { amount: 2_000 } })).body.status).toBe('pending');
});
afterAll(() => vi.restoreAllMocks());

describe('migration 0025 (an index of the refunds no provider answered)', () => {
  it('adds the index, leaves every refund as it was, and the ask-again reads through it', async () => {
    expect(await index()).toEqual([]);
    const before = await refundRows();
    expect(before).toHaveLength(2);

    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

    expect(await index()).toHaveLength(1);
    expect(await refundRows()).toEqual(before);
    const { sql, params } = unansweredRefunds(createDb(env.DB), '9999-12-31').toSQL();
    const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>()).results.map((s) => s.detail);
    expect(plan.join('\n')).toContain('refunds_unanswered_idx');
    expect((await unansweredRefunds(createDb(env.DB), '9999-12-31')).map((r) => r.refund.amount)).toEqual([2_000]);
  });
});
