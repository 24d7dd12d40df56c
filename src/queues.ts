// Which consumer handles which queue (names as in wrangler.toml). A message about a record on a
// database other than DB says which in `database` (lib/databases.ts); the batch is split by it and
// each part consumed with an env whose DB is that database, so the consumers themselves read
// `env.DB` as they always did.
import { DatabaseName } from './lib/database-name';
import { DIRECTORY, withDatabase, workspaceDatabases } from './lib/databases';
import { consumeSuggestionDeadLetters, consumeSuggestions } from './modules/suggestions/consumer';
import { consumeTransfers } from './modules/transfers/consumer';
import { consumeTransferDeadLetters } from './modules/transfers/dead-letter';
import { consumeWebhooks } from './modules/webhooks/consumer';
import { consumeEmails } from './modules/emails/consumer';
import { consumeInbound } from './modules/inbound-documents/consumer';
import { consumeExports } from './modules/exports/consumer';

export type QueueConsumer = (batch: MessageBatch<unknown>, env: Env) => Promise<void>;

export const queueConsumers: Record<string, QueueConsumer> = {
  'workspace-transfers': (batch, env) => consumeTransfers(batch, env),
  'workspace-transfers-dlq': consumeTransferDeadLetters,
  'workspace-suggestions': (batch, env) => consumeSuggestions(batch, env),
  'workspace-suggestions-dlq': consumeSuggestionDeadLetters,
  'workspace-webhooks': consumeWebhooks,
  'workspace-emails': consumeEmails,
  'workspace-inbound': (batch, env) => consumeInbound(batch, env),
  'workspace-exports': consumeExports,
};

/** The database a message's record is on: DB unless its body names another. */
function databaseOfMessage(message: Message<unknown>): string {
  const named = (message.body as { database?: unknown } | null)?.database;
  return named === undefined ? DIRECTORY : DatabaseName.catch('').parse(named);
}

/** The batch's messages grouped by database, each group a batch of its own. */
export function splitByDatabase(batch: MessageBatch<unknown>): Map<string, MessageBatch<unknown>> {
  const groups = new Map<string, Message<unknown>[]>();
  for (const message of batch.messages) {
    const name = databaseOfMessage(message);
    const group = groups.get(name);
    if (group) group.push(message);
    else groups.set(name, [message]);
  }
  return new Map(
    [...groups].map(([name, messages]) => [
      name,
      {
        queue: batch.queue,
        metadata: batch.metadata,
        messages,
        retryAll: (options?: QueueRetryOptions) => messages.forEach((m) => m.retry(options)),
        ackAll: () => messages.forEach((m) => m.ack()),
      },
    ]),
  );
}

/** Consumes the batch; answers the names of the configured databases its messages were about. */
export async function consumeQueue(batch: MessageBatch<unknown>, env: Env): Promise<string[]> {
  const consume = queueConsumers[batch.queue];
  if (!consume) {
    console.error(JSON.stringify({ level: 'error', message: `No consumer for queue ${batch.queue}` }));
    batch.retryAll();
    return [];
  }
  const parts = splitByDatabase(batch);
  for (const [name, part] of parts) {
    let dbEnv: Env;
    try {
      dbEnv = withDatabase(env, name);
    } catch {
      // A database this worker does not bind (a misconfiguration): the records' state is in D1, and
      // the cron's sweeps send them again once the binding is back.
      console.error(JSON.stringify({ level: 'error', message: 'queue message names an unknown database', queue: batch.queue, database: name }));
      part.retryAll();
      continue;
    }
    await consume(part, dbEnv);
  }
  return [...parts.keys()].filter((name) => workspaceDatabases(env).includes(name));
}
