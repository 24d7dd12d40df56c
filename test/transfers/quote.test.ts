// Quotes to the minor unit in 0-, 2- and 3-decimal currencies, through the worker.
import { beforeAll, describe, expect, it } from 'vitest';
import { isValidIban } from '../../src/lib/iban';
import { call, errorPaths, expectError } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { recipient, sendTransfer } from '../helpers/transfers';

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

describe('a transfer quote', () => {
  it('USD → EUR: fee = ceil(0.5 %) + $1.00, target rounded down', async () => {
    await putRates({ EUR: 0.9213, JPY: 151.37, KWD: 0.3071 });
    const t = await sendTransfer(user.key, { source_amount: 100_001 });
    // 0.5 % of 100001 = 500.005 → 501; + 100 cents = 601. (100001 − 601) × 0.9213 = 91577.22 → 91577
    expect(t).toMatchObject({ status: 'pending', fee: 601, rate: '0.9213', target_amount: 91_577, source_amount: 100_001 });
    expect(t.status_history).toEqual([{ status: 'pending', at: t.created_at }]);
  });

  it('JPY → USD: the fixed fee in yen, rounded up', async () => {
    await putRates({ EUR: 0.9213, JPY: 151.37, KWD: 0.3071 });
    const t = await sendTransfer(user.key, { source_currency: 'JPY', target_currency: 'USD', source_amount: 100_000 });
    // 0.5 % of ¥100000 = 500; $1.00 = ¥151.37 → 152; fee 652.
    // rate 1 / 151.37 = 0.00660632886… → 0.0066063289 (10 places, as shown and used);
    // ¥99348 × 0.0066063289 = $656.3255… = 65632.55 cents → 65632
    expect(t).toMatchObject({ fee: 652, rate: '0.0066063289', target_amount: 65_632 });
  });

  it('EUR → KWD: three-decimal target, to the fils', async () => {
    await putRates({ EUR: 0.9213, JPY: 151.37, KWD: 0.3071 });
    const t = await sendTransfer(user.key, { source_currency: 'EUR', target_currency: 'KWD', source_amount: 50_000 });
    // 0.5 % of 50000 = 250; $1.00 = €0.9213 → 92.13 cents → 93; fee 343.
    // rate 0.3071 / 0.9213 = 0.33333333… → 0.3333333333; 49657 cents = 496.57 EUR × rate = 165.5233 KWD = 165523.33 fils → 165523
    expect(t).toMatchObject({ fee: 343, rate: '0.3333333333', target_amount: 165_523 });
  });

  it('refuses a transfer that would pay out less than one minor unit', async () => {
    await putRates({ EUR: 0.9213, JPY: 151.37, KWD: 0.3071 });
    const send = (source_amount: number) =>
      call('POST', '/v1/remit/transfer', {
        key: user.key,
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        body: { source_currency: 'JPY', target_currency: 'USD', source_amount, recipient: recipient() },
      });
    // ¥154: fee ¥1 + ¥152 = ¥153; the ¥1 left is $0.0066, less than a cent.
    const nothing = await send(154);
    expectError(nothing, 422, 'validation_failed');
    expect(errorPaths(nothing)).toEqual(['source_amount']);
    // ¥155 leaves ¥2 = 1.3 cents → 1 cent: the smallest transfer that pays anything.
    expect((await send(155)).body).toMatchObject({ fee: 153, target_amount: 1 });
  });

  it('refuses a recipient country that is not an assigned ISO 3166-1 code', async () => {
    await putRates({ EUR: 0.9213, JPY: 151.37, KWD: 0.3071 });
    for (const country of ['XX', 'ZZ', 'AA', 'QM', 'EU']) {
      const res = await call('POST', '/v1/remit/transfer', {
        key: user.key,
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 10_000, recipient: { ...recipient(), country } },
      });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), country).toEqual(['recipient.country']);
    }
  });

  it('refuses an amount that does not cover the fee', async () => {
    await putRates({ EUR: 0.9213 });
    const res = await call('POST', '/v1/remit/transfer', {
      key: user.key,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100, recipient: recipient() },
    });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['source_amount']);
  });

  it('refuses stale or missing rates: no money moves on them', async () => {
    await putRates({ EUR: 0.9213 }, new Date(Date.now() - 37 * 3_600_000));
    const stale = await call('POST', '/v1/remit/transfer', {
      key: user.key,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 10_000, recipient: recipient() },
    });
    expectError(stale, 503, 'rates_unavailable');
    await putRates({ EUR: 0.9213 });
    const unknownRate = await call('POST', '/v1/remit/transfer', {
      key: user.key,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'NGN', source_amount: 10_000, recipient: recipient() },
    });
    // A currency the rates do not contain is the request's fault (§1), not an outage.
    expectError(unknownRate, 422, 'validation_failed');
    expect(errorPaths(unknownRate)).toEqual(['target_currency']);
    const unknownSource = await call('POST', '/v1/remit/transfer', {
      key: user.key,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'NGN', target_currency: 'EUR', source_amount: 10_000, recipient: recipient() },
    });
    expectError(unknownSource, 422, 'validation_failed');
    expect(errorPaths(unknownSource)).toEqual(['source_currency']);
    expect((await call('GET', '/v1/remit/transfers', { key: user.key })).body.data.every((t: { target_currency: string }) => t.target_currency !== 'NGN')).toBe(true);
  });
});

describe('recipients', () => {
  it('checks IBANs by checksum and length', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('GB82WEST12345698765432')).toBe(true);
    expect(isValidIban('DE89370400440532013001')).toBe(false); // checksum
    expect(isValidIban('DE8937040044053201300')).toBe(false); // length
  });

  it('accepts an account number with a bank code, and names what is wrong', async () => {
    await putRates({ EUR: 0.9213, GBP: 0.7871 });
    const local = await sendTransfer(user.key, { target_currency: 'GBP', recipient: { name: 'Amy Pond', country: 'GB', account: { account_number: '31926819', bank_code: '601613' } } });
    // Shown masked: the whole number is kept only to pay out.
    expect(local.recipient.account).toEqual({ account_number_last4: '6819', bank_code: '601613' });
    const res = await call('POST', '/v1/remit/transfer', {
      key: user.key,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 10_000, recipient: { name: '', country: 'Germany', account: { iban: 'DE00123' } } },
    });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res).sort()).toEqual(['recipient.account.iban', 'recipient.country', 'recipient.name']);
  });
});
