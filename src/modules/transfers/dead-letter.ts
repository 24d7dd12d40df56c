// The dead-letter queue of transfers: messages whose retries ran out. Each transfer still open is
// marked failed with a reason the customer can read; the money never left.
import { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { transfers } from '../../db/schema';
import { createDb } from '../../lib/db';
import { finish } from './consumer';

const Message = z.object({ transfer_id: z.string() });

export async function consumeTransferDeadLetters(batch: MessageBatch<unknown>, env: Env) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const parsed = Message.safeParse(message.body);
    if (parsed.success) {
      const row = await db.query.transfers.findFirst({ where: eq(transfers.id, parsed.data.transfer_id) });
      if (row && (row.status === 'pending' || row.status === 'processing')) {
        await finish(db, row, { status: 'failed', reason: 'The payout provider could not be reached after several attempts; no money was sent.' }, ['pending', 'processing']);
      }
    }
    message.ack();
  }
}
