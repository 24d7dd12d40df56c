// The worker's cron and queue handlers, driven the way the runtime drives them (through the
// default export, as a service binding with the extra handlers flag set in vitest.config.ts).
import { exports } from 'cloudflare:workers';

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
