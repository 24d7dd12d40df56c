// The receipt a payer gets for an online payment (§16, email kind `receipt`): what was paid, for
// which invoice, and what is left due, with the link to the invoice. A payment through the sandbox
// or a Stripe test key says TEST MODE: no real money moved. In the invoice's language (§20).
import { and, eq } from 'drizzle-orm';
import { html } from 'hono/html';
import { paymentProviders, payments } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { formatMoney } from '../../lib/money';
import { labelsFor } from '../documents/labels/language';
import { formatDate, type PrintedDocument } from '../documents/render/printed';
import type { ComposedEmail } from '../emails/providers';

export async function composeReceipt(ctx: WorkspaceContext, doc: PrintedDocument, paymentId: string | null): Promise<ComposedEmail> {
  const [[payment], [provider]] = await ctx.db.batch([
    ctx.db.select().from(payments).where(and(eq(payments.id, paymentId ?? ''), inWorkspace(ctx, payments))),
    ctx.db.select({ testMode: paymentProviders.testMode }).from(paymentProviders).where(inWorkspace(ctx, paymentProviders)),
  ]);
  const testMode = payment?.provider === 'sandbox' || Boolean(provider?.testMode);
  const say = labelsFor(doc.locale).receipt;
  const { testMode: testModeMark } = labelsFor(doc.locale).pay;
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  const paid = payment ? formatMoney(payment.amount, payment.currency, doc.locale) : doc.amountPaid;
  const paidOn = payment && formatDate(payment.paidOn, doc.locale);
  const reference = payment && (payment.providerPaymentId ?? payment.id);
  const mark = testMode ? `[${testModeMark}] ` : '';
  const subject = `${mark}${say.subject(paid, doc.number, from)}`;
  const lines = [
    ...(testMode ? [`${testModeMark}: ${say.testModeNote}`, ''] : []),
    doc.labels.hello(doc.billTo.name),
    '',
    say.thanks(paid, doc.number),
    ...(payment ? [`${say.paidOn}: ${paidOn}`, `${say.reference}: ${reference}`] : []),
    `${say.stillDue}: ${doc.amountDue}`,
    '',
    `${say.theInvoice}: ${doc.hostedUrl ?? ''}`,
    '',
    from,
  ];
  const body = html`<!doctype html>
<html lang="${doc.locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
${testMode ? html`<p><strong>${testModeMark}</strong>: ${say.testModeNote}</p>` : ''}
<p>${doc.labels.hello(doc.billTo.name)}</p>
<p>${say.thanks(paid, doc.number)}</p>
<table role="presentation" style="margin:16px 0">
${payment ? html`<tr><td style="padding-right:16px">${say.paidOn}</td><td>${paidOn}</td></tr><tr><td style="padding-right:16px">${say.reference}</td><td>${reference}</td></tr>` : ''}
<tr><td style="padding-right:16px">${say.stillDue}</td><td>${doc.amountDue}</td></tr></table>
<p><a href="${doc.hostedUrl ?? ''}">${doc.labels.viewInvoice(doc.number)}</a></p>
<p>${from}</p>
</body></html>`;
  return { subject, html: String(body), text: lines.join('\n') };
}
