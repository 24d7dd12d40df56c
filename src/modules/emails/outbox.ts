// The email outbox (§10): an email is a row, written in the batch of what caused it, then a queue
// message. Its state lives in D1, so the cron sweep sends anything whose message was lost, and the
// consumer's lease keeps a duplicate message from sending twice.
import { and, desc, eq, isNull, lt, lte, or } from 'drizzle-orm';
import { emailDeliveries } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { messageRoute } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import type { EmailMessageBody } from './message';

export type EmailDeliveryRow = typeof emailDeliveries.$inferSelect;

export const serializeEmailDelivery = (row: EmailDeliveryRow) => ({
  id: row.id,
  kind: row.kind,
  to: JSON.parse(row.to) as string[],
  cc: JSON.parse(row.cc) as string[],
  status: row.status,
  attempts: row.attempts,
  last_error: row.lastError,
  sent_at: row.sentAt,
  created_at: row.createdAt,
});

/** A queued email for an invoice, to go into the batch that causes it. */
export function outboxRow(
  ctx: WorkspaceContext,
  input: { invoiceId: string; kind: EmailDeliveryRow['kind']; to: string[]; cc: string[]; message: string | null; linkOrigin: string; reminderDay?: number; paymentId?: string; creditNoteId?: string },
): EmailDeliveryRow {
  const now = nowIso();
  return {
    id: newId('emailDelivery'), workspaceId: ctx.workspaceId, invoiceId: input.invoiceId, kind: input.kind, to: JSON.stringify(input.to),
    cc: JSON.stringify(input.cc), message: input.message, linkOrigin: input.linkOrigin, reminderDay: input.reminderDay ?? null, status: 'queued', attempts: 0, lastError: null,
    nextAttemptAt: now, leaseUntil: null, sentAt: null, createdAt: now, paymentId: input.paymentId ?? null, creditNoteId: input.creditNoteId ?? null,
  };
}

export async function enqueueEmails(env: Env, ids: string[], delaySeconds = 0): Promise<void> {
  if (!ids.length) return;
  await env.EMAILS_QUEUE.sendBatch(ids.map((id) => ({ body: { delivery_id: id, ...messageRoute(env) } satisfies EmailMessageBody, delaySeconds })));
}

/** Queued now; should the queue refuse, the sweep sends it later. */
export async function enqueueEmailsQuietly(env: Env, ids: string[]): Promise<void> {
  await enqueueEmails(env, ids).catch((err) =>
    console.warn(JSON.stringify({ level: 'warn', message: 'email not enqueued; the sweep will send it', ids, reason: String(err) })),
  );
}

export async function listInvoiceEmails(ctx: WorkspaceContext, invoiceId: string, limit: number, beforeId?: string) {
  return ctx.db
    .select()
    .from(emailDeliveries)
    .where(and(eq(emailDeliveries.invoiceId, invoiceId), inWorkspace(ctx, emailDeliveries), beforeId ? lt(emailDeliveries.id, beforeId) : undefined))
    .orderBy(desc(emailDeliveries.id))
    .limit(limit + 1);
}

/** Cron: queued emails due for more than two minutes that no one holds go on the queue again. */
export async function sweepQueuedEmails(env: Env, now = new Date(), limit = 500): Promise<number> {
  const db = createDb(env.DB);
  const at = now.toISOString();
  const overdue = new Date(now.getTime() - 2 * 60_000).toISOString();
  const lost = db
    .select({ id: emailDeliveries.id })
    .from(emailDeliveries)
    .where(and(eq(emailDeliveries.status, 'queued'), lte(emailDeliveries.nextAttemptAt, overdue), or(isNull(emailDeliveries.leaseUntil), lt(emailDeliveries.leaseUntil, at))))
    .limit(limit);
  const rows = await lost;
  for (let i = 0; i < rows.length; i += 100) await enqueueEmails(env, rows.slice(i, i + 100).map((r) => r.id));
  return rows.length;
}
