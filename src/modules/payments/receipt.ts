// The receipt a payer gets for an online payment (§16, email kind `receipt`): what was paid, for
// which invoice, and what is left due, with the link to the invoice. A payment through the sandbox
// or a Stripe test key says TEST MODE: no real money moved.
import { and, eq } from 'drizzle-orm';
import { html } from 'hono/html';
import { paymentProviders, payments } from '../../db/schema';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { formatMoney } from '../../lib/money';
import type { PrintedDocument } from '../documents/render/printed';
import type { ComposedEmail } from '../emails/providers';

export async function composeReceipt(ctx: WorkspaceContext, doc: PrintedDocument, paymentId: string | null): Promise<ComposedEmail> {
  const [[payment], [provider]] = await ctx.db.batch([
    ctx.db.select().from(payments).where(and(eq(payments.id, paymentId ?? ''), inWorkspace(ctx, payments))),
    ctx.db.select({ testMode: paymentProviders.testMode }).from(paymentProviders).where(inWorkspace(ctx, paymentProviders)),
  ]);
  const testMode = payment?.provider === 'sandbox' || Boolean(provider?.testMode);
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  const paid = payment ? formatMoney(payment.amount, payment.currency, doc.locale) : doc.amountPaid;
  const mark = testMode ? '[TEST MODE] ' : '';
  const subject = `${mark}Receipt: ${paid} paid on invoice ${doc.number} from ${from}`;
  const lines = [
    ...(testMode ? ['TEST MODE: this payment was made in a test environment; no real money moved.', ''] : []),
    `Hello ${doc.billTo.name},`,
    '',
    `Thank you: we received your payment of ${paid} for invoice ${doc.number}.`,
    ...(payment ? [`Paid on: ${payment.paidOn}`, `Payment reference: ${payment.providerPaymentId ?? payment.id}`] : []),
    `Amount still due: ${doc.amountDue}`,
    '',
    `The invoice: ${doc.hostedUrl ?? ''}`,
    '',
    from,
  ];
  const body = html`<!doctype html>
<html lang="${doc.locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
${testMode ? html`<p><strong>TEST MODE</strong>: this payment was made in a test environment; no real money moved.</p>` : ''}
<p>Hello ${doc.billTo.name},</p>
<p>Thank you: we received your payment of <strong>${paid}</strong> for invoice ${doc.number}.</p>
<table role="presentation" style="margin:16px 0">
${payment ? html`<tr><td style="padding-right:16px">Paid on</td><td>${payment.paidOn}</td></tr><tr><td style="padding-right:16px">Reference</td><td>${payment.providerPaymentId ?? payment.id}</td></tr>` : ''}
<tr><td style="padding-right:16px">Amount still due</td><td>${doc.amountDue}</td></tr></table>
<p><a href="${doc.hostedUrl ?? ''}">View invoice ${doc.number}</a></p>
<p>${from}</p>
</body></html>`;
  return { subject, html: String(body), text: lines.join('\n') };
}
