import { expect } from 'vitest';
import { call } from './api';

// A valid German IBAN (checksum 89) and a recipient using it.
export const IBAN = 'DE89370400440532013000';
export const recipient = (name = 'Jonas Weber') => ({ name, country: 'DE', account: { iban: IBAN } });

export async function sendTransfer(key: string, body: Record<string, unknown> = {}, idempotencyKey = crypto.randomUUID()) {
  const res = await call('POST', '/v1/remit/transfer', {
    key,
    headers: { 'Idempotency-Key': idempotencyKey },
    body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000, recipient: recipient(), ...body },
  });
  expect(res.status).toBe(202);
  return res.body;
}
