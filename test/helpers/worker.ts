// The worker's cron and queue handlers, driven the way the runtime drives them (through the
// default export, as a service binding with the extra handlers flag set in vitest.config.ts).
import { exports } from 'cloudflare:workers';
import wranglerToml from '../../wrangler.toml?raw';

type QueueResult = {
  outcome: string;
  ackAll: boolean;
  retryBatch: { retry: boolean; delaySeconds?: number };
  explicitAcks: string[];
  retryMessages: { msgId: string; delaySeconds?: number }[];
};
type ExtraHandlers = {
  scheduled(options: { cron?: string; scheduledTime?: Date }): Promise<{ outcome: string }>;
  queue(queue: string, messages: { id: string; timestamp: Date; body: unknown; attempts: number }[]): Promise<QueueResult>;
};

const worker = exports.default as unknown as ExtraHandlers;

export async function runScheduled(cron = '*/15 * * * *') {
  const result = await worker.scheduled({ cron, scheduledTime: new Date() });
  if (result.outcome !== 'ok') throw new Error(`scheduled handler ended with ${result.outcome}`);
}

export type QueueMessage = { id: string; body: unknown; attempts?: number };

/** Delivers messages to the worker's queue handler; answers which were acked, retried, … */
export async function deliver(queue: string, messages: QueueMessage[]) {
  return worker.queue(
    queue,
    messages.map((m) => ({ id: m.id, timestamp: new Date(), body: m.body, attempts: m.attempts ?? 1 })),
  );
}

/**
 * `max_retries` of each consumer of `queue` in wrangler.toml, one per environment that declares
 * it: for checking a constant in the code that must agree with the configuration.
 */
export function consumerMaxRetries(queue: string): number[] {
  // Split into tables, each from its [[header]] to the next one.
  const tables = wranglerToml.split(/^(?=\[)/m).filter((table) => /^\[\[(env\.\w+\.)?queues\.consumers\]\]/.test(table));
  return tables
    .filter((table) => new RegExp(`^queue = "${queue}"$`, 'm').test(table))
    .map((table) => Number(/^max_retries = (\d+)$/m.exec(table)?.[1]));
}
