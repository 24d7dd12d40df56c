// Worker entry: HTTP, the cron trigger and the queue consumers.
import { app } from './app';
import { config } from './config';
import { runCron } from './cron';
import { withDatabase, workspaceDatabases } from './lib/databases';
import { dispatchQuietly } from './modules/webhooks/dispatch';
import { consumeQueue } from './queues';

/** Webhook deliveries made on each of these databases go on the queue. */
const dispatchEverywhere = async (env: Env, databases: string[]) => {
  for (const name of databases) await dispatchQuietly(withDatabase(env, name));
};

// Durable Object classes the runtime instantiates by name (wrangler.toml).
export { AdminLockout } from './middleware/admin-lockout-object';

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    config(env);
    ctx.waitUntil(runCron(env).then(() => dispatchEverywhere(env, workspaceDatabases(env))));
  },
  async queue(batch, env) {
    config(env);
    const databases = await consumeQueue(batch, env);
    // The jobs write events too (transfer.completed, suggestion.failed): their webhooks go out now.
    if (batch.queue !== 'workspace-webhooks') await dispatchEverywhere(env, databases);
  },
} satisfies ExportedHandler<Env>;
