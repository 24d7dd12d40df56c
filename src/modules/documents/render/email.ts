// The email that carries an invoice, or a reminder of one (§10, §12): a subject with the issuer and
// the number, HTML and text parts with the amount due, the due date, the sender's message and the
// hosted link, all in the invoice's language with its amounts formatted in its locale. A reply goes
// to the issuer's email. No attachment: the link leads to the page and its PDF.
import { html } from 'hono/html';
import type { ComposedEmail } from '../../emails/providers';
import type { PrintedDocument } from './printed';

export function composeInvoiceEmail(doc: PrintedDocument, kind: 'invoice' | 'reminder', message: string | null): ComposedEmail {
  const { labels } = doc;
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  const subject = kind === 'reminder' ? labels.reminderSubject(doc.number, from, doc.dueDate) : labels.invoiceFrom(doc.number, from);
  const lead = kind === 'reminder' ? labels.reminderLead(doc.number, doc.dueDate) : labels.sentYou(from, doc.number);
  const text = [
    labels.hello(doc.billTo.name),
    '',
    lead,
    ...(message ? ['', message] : []),
    '',
    `${labels.amountDue}: ${doc.amountDue}`,
    `${labels.dueDate}: ${doc.dueDate}`,
    '',
    `${labels.viewAndDownload}: ${doc.hostedUrl}`,
    '',
    from,
  ].join('\n');
  const body = html`<!doctype html>
<html lang="${doc.locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
<p>${labels.hello(doc.billTo.name)}</p>
<p>${lead}</p>
${message ? html`<p style="white-space:pre-wrap">${message}</p>` : ''}
<table role="presentation" style="margin:16px 0"><tr><td style="padding-right:16px">${labels.amountDue}</td><td><strong>${doc.amountDue}</strong></td></tr>
<tr><td style="padding-right:16px">${labels.dueDate}</td><td>${doc.dueDate}</td></tr></table>
<p><a href="${doc.hostedUrl ?? ''}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1f4fd1;color:#fff;text-decoration:none">${labels.viewInvoice(doc.number)}</a></p>
<p>${from}</p>
</body></html>`;
  return { subject, html: String(body), text, replyTo: doc.issuer.email };
}
