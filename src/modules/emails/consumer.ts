// The emails queue consumer (§10): one message, one attempt at one outbox row. The row is claimed
// under a lease (a duplicate message finds it taken or sent), composed from the invoice as it is
// now (its document, its link derived again), handed to the provider, and the outcome recorded:
// sent, or retried after 1 min, 10 min, 1 h and 6 h, and `failed` after the fifth attempt.
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import { emailDeliveries } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { EmailMessage } from './message';
import { EMAIL_RETRY_DELAYS_MS, MAX_EMAIL_ATTEMPTS } from './schedule';
import { enqueueEmails, type EmailDeliveryRow } from './outbox';
import { sendEmail } from './providers';
import { attemptFor, rendererFor } from './renderers';

export const EMAILS_JOB = 'emails';
export { EMAIL_RETRY_DELAYS_MS, MAX_EMAIL_ATTEMPTS } from './schedule';
const LEASE_MS = 60_000;

export async function consumeEmails(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = EmailMessage.safeParse(message.body);
    if (!parsed.success) {
      message.ack();
      continue;
    }
    const body = parsed.data;
    try {
      const waitSeconds =
        'invitation_id' in body ? await attemptFor('invitation')(env, body.invitation_id)
        : 'quote_id' in body ? await attemptFor('quote')(env, body.quote_id)
        : 'proposal_email_id' in body ? await attemptFor('proposal')(env, body.proposal_email_id)
        : await attempt(env, body.delivery_id);
      if (waitSeconds) message.retry({ delaySeconds: waitSeconds });
      else message.ack();
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', message: 'email attempt could not be recorded; will retry', ...body, reason: String(err) }));
      message.retry({ delaySeconds: 30 });
    }
  }
}

/** Sends the email if it is due and free; returns seconds to wait when the message came early. */
async function attempt(env: Env, id: string): Promise<number | void> {
  const db = createDb(env.DB);
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const [row] = await db
    .update(emailDeliveries)
    .set({ leaseUntil })
    .where(
      and(
        eq(emailDeliveries.id, id),
        eq(emailDeliveries.status, 'queued'),
        lte(emailDeliveries.nextAttemptAt, new Date(now.getTime() + 1000).toISOString()),
        or(isNull(emailDeliveries.leaseUntil), lte(emailDeliveries.leaseUntil, now.toISOString())),
      ),
    )
    .returning();
  if (!row) {
    const current = await db.query.emailDeliveries.findFirst({ where: eq(emailDeliveries.id, id) });
    const dueIn = current?.status === 'queued' && current.nextAttemptAt ? Date.parse(current.nextAttemptAt) - now.getTime() : 0;
    return dueIn > 1000 ? Math.min(43_200, Math.ceil(dueIn / 1000)) : undefined;
  }
  const ctx = systemContext(env, row.workspaceId, EMAILS_JOB);
  const composed = await rendererFor(row.kind)(ctx, row);
  const result = await sendEmail(env, { ...composed, to: JSON.parse(row.to) as string[], cc: JSON.parse(row.cc) as string[] });
  await record(env, { ...row, leaseUntil }, result.ok ? null : result.error);
}

async function record(env: Env, row: EmailDeliveryRow, error: string | null) {
  const db = createDb(env.DB);
  const at = new Date();
  const attempts = row.attempts + 1;
  const delay = error && attempts < MAX_EMAIL_ATTEMPTS ? EMAIL_RETRY_DELAYS_MS[attempts - 1]! : null;
  const status = !error ? 'sent' : delay === null ? 'failed' : 'queued';
  const [updated] = await db
    .update(emailDeliveries)
    .set({
      status,
      attempts,
      lastError: error,
      sentAt: error ? null : at.toISOString(),
      nextAttemptAt: delay === null ? null : new Date(at.getTime() + delay).toISOString(),
      leaseUntil: null,
    })
    .where(and(eq(emailDeliveries.id, row.id), eq(emailDeliveries.status, 'queued'), eq(emailDeliveries.leaseUntil, row.leaseUntil!)))
    .returning({ id: emailDeliveries.id });
  const log = { delivery_id: row.id, invoice_id: row.invoiceId, kind: row.kind, attempts, status };
  if (error) console.warn(JSON.stringify({ level: 'warn', message: 'email attempt failed', ...log, error }));
  if (updated && delay !== null) {
    await enqueueEmails(env, [row.id], Math.ceil(delay / 1000)).catch((err) =>
      console.warn(JSON.stringify({ level: 'warn', message: 'email retry not enqueued; the sweep will send it', delivery_id: row.id, reason: String(err) })),
    );
  }
}
