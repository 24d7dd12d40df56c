// The workspace-exports queue consumer (§22): one period bundle per message (max_batch_size 1 in wrangler.toml),
// retried with a growing delay when it fails, and marked failed on its last delivery.
import { EXPORT_MAX_RETRIES, ExportMessage } from './bundle/message';
import { failExport, runExport } from './bundle/job';

export async function consumeExports(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ExportMessage.safeParse(message.body);
    if (!parsed.success) {
      message.ack();
      continue;
    }
    const id = parsed.data.export_id;
    try {
      await runExport(env, id);
      message.ack();
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', message: 'export failed', export_id: id, attempt: message.attempts, reason: String(err) }));
      if (message.attempts > EXPORT_MAX_RETRIES) {
        await failExport(env, id, 'The bundle could not be written; please ask for it again.');
        message.ack();
      } else {
        message.retry({ delaySeconds: 60 * message.attempts });
      }
    }
  }
}
