// A conversion whose result is beyond 2^53 minor units cannot be answered exactly in JSON; it is
// refused with a 422 instead of being rounded silently. Found by the contract fuzzer: a transfer
// of 10^13 cents into a currency with a large rate answered target_amount 9007199254743588.
import { describe, expect, it } from 'vitest';
import { convertMinor } from '../../src/lib/money';
import { call, expectError } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { recipient } from '../helpers/transfers';

describe('conversions stay exact', () => {
  it('refuses a result beyond 2^53 and keeps every result below it exact', () => {
    expect(convertMinor(9_007_199_254_740_991, 'USD', 'USD', { num: 1n, den: 1n })).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => convertMinor(10_000_000_000_000, 'USD', 'VND', { num: 90_100n, den: 1n })).toThrow(/too large to be exact/);
    expect(convertMinor(10_000_000_000_000, 'USD', 'VND', { num: 90_000n, den: 1n })).toBe(9_000_000_000_000_000);
  });

  it('answers a transfer too large to convert exactly with a 422, and creates nothing', async () => {
    await putRates({ VND: 2_000_000 });
    const user = await createUser();
    const res = await call('POST', '/v1/remit/transfer', {
      key: user.key,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { source_currency: 'USD', target_currency: 'VND', source_amount: 10_000_000_000_000, recipient: recipient() },
    });
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.message).toMatch(/too large to be exact/);
    expect((await call('GET', '/v1/remit/transfers', { key: user.key })).body.data).toEqual([]);
  });
});
