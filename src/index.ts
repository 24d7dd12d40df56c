// Worker entry: HTTP, the cron trigger and the queue consumers.
import './registrations';
import { app } from './app';
import { config } from './config';

// Durable Object classes the runtime instantiates by name (wrangler.toml).
export { AdminLockout } from './middleware/admin-lockout-object';

// The cron and the consumers are imported on their first event and kept: every later event awaits
// the one settled import.
let jobs: Promise<typeof import('./jobs')> | undefined;
const loadJobs = () => (jobs ??= import('./jobs'));

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    config(env);
    ctx.waitUntil(loadJobs().then(({ runScheduled }) => runScheduled(env)));
  },
  // §21: mail to a workspace's inbound address (Cloudflare Email Routing); its module loads with the first message
  // (the MIME parser itself is the renderer worker's).
  async email(message, env) {
    config(env);
    const { receiveEmail } = await import('./modules/inbound-documents/email');
    await receiveEmail(message, env);
  },
  async queue(batch, env) {
    config(env);
    const { runQueueBatch } = await loadJobs();
    await runQueueBatch(batch, env);
  },
} satisfies ExportedHandler<Env>;
