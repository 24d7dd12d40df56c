// What the worker runs besides requests: the cron trigger and the queue consumers. The entry imports
// this module on the first scheduled or queue event, so a worker started for a request does not
// build the services and schemas they use.
import { runCron } from './cron';
import { withDatabase, workspaceDatabases } from './lib/databases';
import { dispatchQuietly } from './modules/webhooks/dispatch';
import { consumeQueue } from './queues';

/** Webhook deliveries made on each of these databases go on the queue. */
const dispatchEverywhere = async (env: Env, databases: string[]) => {
  for (const name of databases) await dispatchQuietly(withDatabase(env, name));
};

/** One cron run, then the webhooks of the events it wrote. */
export async function runScheduled(env: Env): Promise<void> {
  await runCron(env);
  await dispatchEverywhere(env, workspaceDatabases(env));
}

/** One queue batch; the jobs write events too (transfer.completed, suggestion.failed): their webhooks go out now. */
export async function runQueueBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const databases = await consumeQueue(batch, env);
  if (batch.queue !== 'workspace-webhooks') await dispatchEverywhere(env, databases);
}
