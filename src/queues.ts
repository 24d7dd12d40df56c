// Which consumer handles which queue (names as in wrangler.toml).
export type QueueConsumer = (batch: MessageBatch<unknown>, env: Env) => Promise<void>;

export const queueConsumers: Record<string, QueueConsumer> = {};

export async function consumeQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const consume = queueConsumers[batch.queue];
  if (!consume) {
    console.error(JSON.stringify({ level: 'error', message: `No consumer for queue ${batch.queue}` }));
    batch.retryAll();
    return;
  }
  await consume(batch, env);
}
