// Which consumer handles which queue (names as in wrangler.toml).
import { consumeSuggestionDeadLetters, consumeSuggestions } from './modules/suggestions/consumer';
import { consumeTransfers } from './modules/transfers/consumer';
import { consumeTransferDeadLetters } from './modules/transfers/dead-letter';
import { consumeWebhooks } from './modules/webhooks/consumer';
import { consumeEmails } from './modules/emails/consumer';

export type QueueConsumer = (batch: MessageBatch<unknown>, env: Env) => Promise<void>;

export const queueConsumers: Record<string, QueueConsumer> = {
  'workspace-transfers': (batch, env) => consumeTransfers(batch, env),
  'workspace-transfers-dlq': consumeTransferDeadLetters,
  'workspace-suggestions': (batch, env) => consumeSuggestions(batch, env),
  'workspace-suggestions-dlq': consumeSuggestionDeadLetters,
  'workspace-webhooks': consumeWebhooks,
  'workspace-emails': consumeEmails,
};

export async function consumeQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const consume = queueConsumers[batch.queue];
  if (!consume) {
    console.error(JSON.stringify({ level: 'error', message: `No consumer for queue ${batch.queue}` }));
    batch.retryAll();
    return;
  }
  await consume(batch, env);
}
