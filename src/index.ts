// Worker entry: HTTP, the cron trigger and the queue consumers.
import { app } from './app';
import { config } from './config';
import { runCron } from './cron';
import { dispatchQuietly } from './modules/webhooks/dispatch';
import { consumeQueue } from './queues';

// Durable Object classes the runtime instantiates by name (wrangler.toml).
export { AdminLockout } from './middleware/admin-lockout-object';

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    config(env);
    ctx.waitUntil(runCron(env).then(() => dispatchQuietly(env)));
  },
  async queue(batch, env) {
    config(env);
    await consumeQueue(batch, env);
    // The jobs write events too (transfer.completed, suggestion.failed): their webhooks go out now.
    if (batch.queue !== 'workspace-webhooks') await dispatchQuietly(env);
  },
} satisfies ExportedHandler<Env>;
