// What the cron trigger runs. Each task is independent: one failing does not stop the others.
import { purgeExpiredIdempotencyKeys } from './middleware/idempotency';
import { purgeOldEvents } from './modules/events/service';
import { refreshRates } from './modules/rates/refresh';
import { sweepStrandedTransfers } from './modules/transfers/sweep';
import { sweepLostDeliveries } from './modules/webhooks/dispatch';
import { sweepQueuedEmails } from './modules/emails/outbox';
import { markOverdueInvoices } from './modules/invoices/overdue';
import { queueReminders } from './modules/invoices/reminders';
import { issueDueInvoices } from './modules/recurring-invoices/issue';

export type CronTask = { name: string; run: (env: Env) => Promise<void> };

export const cronTasks: CronTask[] = [
  { name: 'refresh-rates', run: async (env) => void (await refreshRates(env)) },
  { name: 'sweep-stranded-transfers', run: async (env) => void (await sweepStrandedTransfers(env)) },
  { name: 'purge-idempotency-keys', run: purgeExpiredIdempotencyKeys },
  { name: 'purge-old-events', run: async (env) => void (await purgeOldEvents(env)) },
  { name: 'sweep-webhook-deliveries', run: async (env) => void (await sweepLostDeliveries(env)) },
  { name: 'sweep-queued-emails', run: async (env) => void (await sweepQueuedEmails(env)) },
  { name: 'issue-recurring-invoices', run: async (env) => void (await issueDueInvoices(env)) },
  { name: 'mark-overdue-invoices', run: async (env) => void (await markOverdueInvoices(env)) },
  { name: 'queue-reminders', run: async (env) => void (await queueReminders(env)) },
];

export async function runCron(env: Env): Promise<void> {
  const results = await Promise.allSettled(cronTasks.map((task) => task.run(env)));
  results.forEach((result, i) => {
    if (result.status === 'rejected') {
      console.error(JSON.stringify({ level: 'error', cron: cronTasks[i]!.name, message: String(result.reason) }));
    }
  });
}
