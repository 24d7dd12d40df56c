// The email that carries an invoice, or a reminder of one (§10, §12): a subject with the issuer and
// the number, HTML and text parts with the amount due, the due date, the sender's message and the
// hosted link. No attachment: the link leads to the page and its PDF.
import { html } from 'hono/html';
import type { InvoiceDocument } from './document';

export type ComposedEmail = { subject: string; html: string; text: string };

export function composeInvoiceEmail(doc: InvoiceDocument, kind: 'invoice' | 'reminder', message: string | null): ComposedEmail {
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  const subject = kind === 'reminder' ? `Reminder: invoice ${doc.number} from ${from} was due ${doc.dueDate}` : `Invoice ${doc.number} from ${from}`;
  const lead = kind === 'reminder' ? `This is a reminder that invoice ${doc.number} was due on ${doc.dueDate}.` : `${from} has sent you invoice ${doc.number}.`;
  const text = [
    `Hello ${doc.billTo.name},`,
    '',
    lead,
    ...(message ? ['', message] : []),
    '',
    `Amount due: ${doc.amountDue}`,
    `Due date: ${doc.dueDate}`,
    '',
    `View and download it: ${doc.hostedUrl}`,
    '',
    from,
  ].join('\n');
  const body = html`<!doctype html>
<html lang="${doc.locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
<p>Hello ${doc.billTo.name},</p>
<p>${lead}</p>
${message ? html`<p style="white-space:pre-wrap">${message}</p>` : ''}
<table role="presentation" style="margin:16px 0"><tr><td style="padding-right:16px">Amount due</td><td><strong>${doc.amountDue}</strong></td></tr>
<tr><td style="padding-right:16px">Due date</td><td>${doc.dueDate}</td></tr></table>
<p><a href="${doc.hostedUrl ?? ''}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1f4fd1;color:#fff;text-decoration:none">View invoice ${doc.number}</a></p>
<p>${from}</p>
</body></html>`;
  return { subject, html: String(body), text };
}
