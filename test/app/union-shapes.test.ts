// §3: a value that fits none of the shapes a field takes is a 422 whose detail names those shapes
// ("an account is {iban} or {account_number, bank_code}"), never a bare "Invalid input".
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createClient, createSentInvoice, createUser, type TestUser } from '../helpers/factories';

let owner: TestUser;
let clientId: string;
beforeAll(async () => {
  owner = await createUser('Owner');
  clientId = (await createClient(owner.key, { name: 'Acme GmbH' })).id;
});

/** The one detail of a 422, at `path`. */
async function detailOf(res: Awaited<ReturnType<typeof call>>, path: string) {
  expectError(res, 422, 'validation_failed');
  const details = (res.body as any).error.details as { path: string; message: string }[];
  expect(details.map((d) => d.path)).toEqual([path]);
  expect(details[0]!.message).not.toBe('Invalid input');
  return details[0]!.message;
}

const line = { description: 'Design work', quantity: 1, unit_amount: 10_000 };
const recipient = (account: unknown) => ({ name: 'Jane Doe', country: 'DE', account });

describe('a value that fits none of a field\'s shapes', () => {
  it.each([
    ['an object of neither form', { rate: 10 }],
    ['both forms at once', { percent: 10, amount: 500 }],
    ['a bare number', 10],
  ])('a discount: %s', async (_, discount) => {
    const res = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: clientId, line_items: [line], discount } });
    expect(await detailOf(res, 'discount')).toBe('a discount is {percent} or {amount}.');
  });

  it('names both account forms, and the two providers by their values', async () => {
    const transfer = await call('POST', '/v1/remit/transfer', {
      key: owner.key, headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 10_000, recipient: recipient({ bank: 'Sparkasse' }) },
    });
    expect(await detailOf(transfer, 'recipient.account')).toBe('an account is {iban} or {account_number, bank_code}.');
    const payments = await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'paypal' } });
    expect(await detailOf(payments, 'provider')).toBe('a payment provider is {provider: "stripe", secret_key, webhook_secret} or {provider: "sandbox"}.');
    const payouts = await call('PUT', '/api/workspace/payout-provider', { key: owner.key, body: { provider: 'paypal' } });
    expect(await detailOf(payouts, 'provider')).toBe('a payout provider is {provider: "wise", api_token, profile_id} or {provider: "sandbox"}.');
  });

  it('names both forms of a credit note\'s line', async () => {
    const invoice = await createSentInvoice(owner.key, { client_id: clientId });
    const res = await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key, body: { reason: 'other', email: false, lines: [{ amount: 500 }] } });
    expect(await detailOf(res, 'lines.0')).toBe('a line is {line_item_id} or {description, quantity, unit_amount, tax_rate}.');
  });

  it('still names the field that is wrong when a value has one shape\'s keys', async () => {
    const res = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: clientId, line_items: [line], discount: { percent: 'ten' } } });
    expect(await detailOf(res, 'discount.percent')).toMatch(/expected number/);
    const badLine = await call('POST', `/v1/invoices/${(await createSentInvoice(owner.key, { client_id: clientId })).id}/credit-notes`, {
      key: owner.key, body: { reason: 'other', email: false, lines: [{ line_item_id: 'li_nope' }] },
    });
    expect(await detailOf(badLine, 'lines.0.line_item_id')).not.toContain('a line is');
  });
});
