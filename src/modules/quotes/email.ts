// The email that carries a quote's link to the client (§18, kind `quote`): in the quote's language,
// with its total, its validity and the link to the page where the client answers. Its state lives
// on the quote (db/schema/quotes.ts): queued in the batch that sends it, claimed under a lease by the emails
// consumer (a duplicate message finds it taken or sent), retried after 1 min, 10 min, 1 h and 6 h,
// `failed` after the fifth attempt, and re-queued by the cron sweep when its message was lost.
import { and, eq, isNull, lt, lte, or } from 'drizzle-orm';
import { html } from 'hono/html';
import { quotes } from '../../db/schema';
import { messageRoute } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { nowIso } from '../../lib/time';
import { EMAIL_RETRY_DELAYS_MS, MAX_EMAIL_ATTEMPTS } from '../emails/schedule';
import { sendEmail } from '../emails/providers';
import type { ComposedEmail } from '../emails/providers';
import { type QuoteDocument, quoteDocumentOf } from './document';
import { readQuoteWithParties } from './service';

const LEASE_MS = 60_000;

export async function enqueueQuoteEmail(env: Env, quoteId: string, delaySeconds = 0): Promise<void> {
  await env.EMAILS_QUEUE.send({ quote_id: quoteId, ...messageRoute(env) }, { delaySeconds }).catch((err) =>
    console.warn(JSON.stringify({ level: 'warn', message: 'quote email not enqueued; the sweep will send it', quote_id: quoteId, reason: String(err) })),
  );
}

/** The quote's email columns for the batch that sends it. */
export const queuedQuoteEmail = (to: string[], cc: string[], message: string | null) => ({
  emailTo: JSON.stringify(to), emailCc: JSON.stringify(cc), emailMessage: message, emailStatus: 'queued' as const, emailAttempts: 0, emailNextAttemptAt: nowIso(),
});

export function composeQuoteEmail(doc: QuoteDocument, message: string | null): ComposedEmail {
  const q = doc.quoteLabels;
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  const lead = q.sentYouQuote(from, doc.number);
  const text = [
    q.hello(doc.billTo.name), '', lead, ...(message ? ['', message] : []), '',
    `${q.total}: ${doc.total}`, `${q.validUntil}: ${doc.dueDate}`, '', `${q.viewQuote(doc.number)}: ${doc.hostedUrl}`, '', from,
  ].join('\n');
  const body = html`<!doctype html>
<html lang="${doc.locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
<p>${q.hello(doc.billTo.name)}</p>
<p>${lead}</p>
${message ? html`<p style="white-space:pre-wrap">${message}</p>` : ''}
<table role="presentation" style="margin:16px 0"><tr><td style="padding-right:16px">${q.total}</td><td><strong>${doc.total}</strong></td></tr>
<tr><td style="padding-right:16px">${q.validUntil}</td><td>${doc.dueDate}</td></tr></table>
<p><a href="${doc.hostedUrl ?? ''}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1f4fd1;color:#fff;text-decoration:none">${q.viewQuote(doc.number)}</a></p>
<p>${from}</p>
</body></html>`;
  return { subject: q.quoteFrom(doc.number, from), html: String(body), text, replyTo: doc.issuer.email };
}

/** One attempt at the quote's email; returns seconds to wait when the message came early. */
export async function attemptQuoteEmail(env: Env, quoteId: string): Promise<number | void> {
  const db = createDb(env.DB);
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const [claimed] = await db
    .update(quotes)
    .set({ emailLeaseUntil: leaseUntil })
    .where(
      and(
        eq(quotes.id, quoteId),
        eq(quotes.emailStatus, 'queued'),
        lte(quotes.emailNextAttemptAt, new Date(now.getTime() + 1000).toISOString()),
        or(isNull(quotes.emailLeaseUntil), lte(quotes.emailLeaseUntil, now.toISOString())),
      ),
    )
    .returning({ id: quotes.id });
  if (!claimed) {
    const current = await db.query.quotes.findFirst({ where: eq(quotes.id, quoteId), columns: { emailStatus: true, emailNextAttemptAt: true } });
    const dueIn = current?.emailStatus === 'queued' && current.emailNextAttemptAt ? Date.parse(current.emailNextAttemptAt) - now.getTime() : 0;
    return dueIn > 1000 ? Math.min(43_200, Math.ceil(dueIn / 1000)) : undefined;
  }
  const found = (await readQuoteWithParties(db, eq(quotes.id, quoteId)))!;
  const { quote } = found;
  const doc = await quoteDocumentOf(env, found, quote.linkOrigin!);
  const result = await sendEmail(env, { ...composeQuoteEmail(doc, quote.emailMessage), to: JSON.parse(quote.emailTo ?? '[]'), cc: JSON.parse(quote.emailCc ?? '[]') });
  const attempts = quote.emailAttempts + 1;
  const error = result.ok ? null : result.error;
  const delay = error && attempts < MAX_EMAIL_ATTEMPTS ? EMAIL_RETRY_DELAYS_MS[attempts - 1]! : null;
  const at = new Date();
  const [updated] = await db
    .update(quotes)
    .set({
      emailStatus: !error ? 'sent' : delay === null ? 'failed' : 'queued', emailAttempts: attempts, emailError: error,
      emailSentAt: error ? null : at.toISOString(), emailNextAttemptAt: delay === null ? null : new Date(at.getTime() + delay).toISOString(), emailLeaseUntil: null,
    })
    .where(and(eq(quotes.id, quoteId), eq(quotes.emailLeaseUntil, leaseUntil)))
    .returning({ id: quotes.id });
  if (error) console.warn(JSON.stringify({ level: 'warn', message: 'quote email attempt failed', quote_id: quoteId, attempts, error }));
  if (updated && delay !== null) await enqueueQuoteEmail(env, quoteId, Math.ceil(delay / 1000));
}

/** Cron: quote emails queued for more than two minutes that no one holds go on the queue again. */
export async function sweepQuoteEmails(env: Env, now = new Date(), limit = 200): Promise<number> {
  const db = createDb(env.DB);
  const at = now.toISOString();
  const overdue = new Date(now.getTime() - 2 * 60_000).toISOString();
  const rows = await db
    .select({ id: quotes.id })
    .from(quotes)
    .where(and(eq(quotes.emailStatus, 'queued'), lte(quotes.emailNextAttemptAt, overdue), or(isNull(quotes.emailLeaseUntil), lt(quotes.emailLeaseUntil, at))))
    .limit(limit);
  for (const row of rows) await enqueueQuoteEmail(env, row.id);
  return rows.length;
}
