// What the cron trigger runs. Each task is independent: one failing does not stop the others.
// Record tasks run once per database that holds workspaces (lib/databases.ts), each with an env
// whose DB is that database; the rest run once. All of them share one D1 query budget
// (lib/query-budget.ts): the invocation's limit is one for the whole run.
import { workspaceDatabases, withDatabase } from './lib/databases';
import { CRON_QUERY_BUDGET, QueryBudget, withQueryBudget } from './lib/query-budget';
import { purgeExpiredIdempotencyKeys } from './middleware/idempotency';
import { relayStrandedEvents } from './modules/events/relay';
import { purgeOldEvents } from './modules/events/service';
import { sweepInvitationEmails } from './modules/access/invitation-email';
import { refreshRates } from './modules/rates/refresh';
import { pollTransfersInFlight } from './modules/transfers/provider-state';
import { sweepStrandedTransfers } from './modules/transfers/sweep';
import { sweepLostDeliveries } from './modules/webhooks/dispatch';
import { sweepQueuedEmails } from './modules/emails/outbox';
import { markOverdueInvoices } from './modules/invoices/overdue';
import { queueReminders } from './modules/invoices/reminders';
import { issueDueInvoices } from './modules/recurring-invoices/issue';
import { expireQuotes } from './modules/quotes/expiry';
import { sweepQuoteEmails } from './modules/quotes/email';
import { askAgainUnansweredRefunds } from './modules/payments/refund-sweep';
import { sweepStrandedDocuments } from './modules/inbound-documents/sweep';
import { finishPendingAccepts } from './modules/proposals/accept-records';
import { sweepProposalEmails } from './modules/proposals/email';
import { expireProposals } from './modules/mcp/proposals/expiry';
import { abortLeftUploads, sweepExpiredExports, sweepStrandedExports } from './modules/exports/bundle/sweep';

export type CronTask = { name: string; run: (env: Env) => Promise<void> };

/** Once a run: the rates, the member events the directory holds for workspaces elsewhere, and the directory's emails and proposals. */
export const globalCronTasks: CronTask[] = [
  { name: 'refresh-rates', run: async (env) => void (await refreshRates(env)) },
  { name: 'relay-member-events', run: async (env) => void (await relayStrandedEvents(env)) },
  { name: 'sweep-invitation-emails', run: async (env) => void (await sweepInvitationEmails(env)) },
  // Proposals live in the directory; their accepts' records on the senders' databases.
  { name: 'finish-accepted-proposals', run: async (env) => void (await finishPendingAccepts(env)) },
  { name: 'sweep-proposal-emails', run: async (env) => void (await sweepProposalEmails(env)) },
];

/** Once a run on each database, over the records it holds. */
export const databaseCronTasks: CronTask[] = [
  { name: 'sweep-stranded-transfers', run: async (env) => void (await sweepStrandedTransfers(env)) },
  { name: 'poll-transfers-in-flight', run: async (env) => void (await pollTransfersInFlight(env)) },
  { name: 'purge-idempotency-keys', run: purgeExpiredIdempotencyKeys },
  { name: 'purge-old-events', run: async (env) => void (await purgeOldEvents(env)) },
  { name: 'sweep-webhook-deliveries', run: async (env) => void (await sweepLostDeliveries(env)) },
  { name: 'sweep-queued-emails', run: async (env) => void (await sweepQueuedEmails(env)) },
  { name: 'issue-recurring-invoices', run: async (env) => void (await issueDueInvoices(env)) },
  { name: 'mark-overdue-invoices', run: async (env) => void (await markOverdueInvoices(env)) },
  { name: 'queue-reminders', run: async (env) => void (await queueReminders(env)) },
  { name: 'expire-quotes', run: async (env) => void (await expireQuotes(env)) },
  { name: 'sweep-quote-emails', run: async (env) => void (await sweepQuoteEmails(env)) },
  { name: 'ask-again-unanswered-refunds', run: async (env) => void (await askAgainUnansweredRefunds(env)) },
  { name: 'sweep-stranded-documents', run: async (env) => void (await sweepStrandedDocuments(env)) },
  { name: 'expire-mcp-proposals', run: async (env) => void (await expireProposals(env)) },
  { name: 'sweep-stranded-exports', run: async (env) => void (await sweepStrandedExports(env)) },
  { name: 'remove-expired-exports', run: async (env) => void (await sweepExpiredExports(env), await abortLeftUploads(env)) },
];

export async function runCron(rootEnv: Env, budget = new QueryBudget(CRON_QUERY_BUDGET)): Promise<void> {
  const env = withQueryBudget(rootEnv, budget);
  const runs = [
    ...globalCronTasks.map((task) => ({ task, database: null as string | null, env })),
    ...workspaceDatabases(env).flatMap((database) => databaseCronTasks.map((task) => ({ task, database, env: withDatabase(env, database) }))),
  ];
  const results = await Promise.allSettled(runs.map(({ task, env: taskEnv }) => task.run(taskEnv)));
  results.forEach((result, i) => {
    if (result.status === 'rejected') {
      const { task, database } = runs[i]!;
      console.error(JSON.stringify({ level: 'error', cron: task.name, ...(database ? { database } : {}), message: String(result.reason) }));
    }
  });
}
