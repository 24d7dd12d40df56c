import { env } from 'cloudflare:workers';
import { expect, vi } from 'vitest';
import { TransferMessage } from '../../src/modules/transfers/message';
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

/**
 * Keeps what the API and the sweep enqueue off the runtime's queue, whose consumer would otherwise
 * run those transfers in the background whenever a batch fills or times out, racing a test that
 * delivers them itself. `sent` collects the transfer ids enqueued, in order; `send` is the spy
 * (restored by vi.restoreAllMocks).
 */
export function holdTransfersQueue() {
  const sent: string[] = [];
  const send = vi.spyOn(env.TRANSFERS_QUEUE, 'sendBatch').mockImplementation((async (messages: Iterable<MessageSendRequest>) => {
    for (const m of messages) sent.push(TransferMessage.parse(m.body).transfer_id);
  }) as never);
  return { sent, send };
}
