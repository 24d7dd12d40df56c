// Worker entry: HTTP, the cron trigger and the queue consumers.
import { app } from './app';
import { runCron } from './cron';
import { consumeQueue } from './queues';

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runCron(env));
  },
  async queue(batch, env) {
    await consumeQueue(batch, env);
  },
} satisfies ExportedHandler<Env>;
