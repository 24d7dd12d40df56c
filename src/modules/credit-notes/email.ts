// The email that carries a credit note to the client (§17, kind `credit_note`): the invoice's email
// layout with what the credit note says: its number, the invoice it corrects, its total and its link.
import { html } from 'hono/html';
import type { ComposedEmail } from '../emails/providers';
import type { PrintedDocument } from '../documents/render/printed';

export function composeCreditNoteEmail(doc: PrintedDocument): ComposedEmail {
  const { labels } = doc;
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  const title = `${doc.credit?.title ?? labels.creditNote} ${doc.number}`;
  const subject = labels.creditNoteFrom(doc.number, from);
  const text = [
    labels.hello(doc.billTo.name),
    '',
    `${title}: ${doc.credit?.corrects ?? ''}`,
    ...(doc.notes ? ['', doc.notes] : []),
    '',
    `${labels.total}: ${doc.total}`,
    '',
    `${labels.viewAndDownload}: ${doc.hostedUrl}`,
    '',
    from,
  ].join('\n');
  const body = html`<!doctype html>
<html lang="${doc.locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
<p>${labels.hello(doc.billTo.name)}</p>
<p>${title}: ${doc.credit?.corrects ?? ''}</p>
${doc.notes ? html`<p style="white-space:pre-wrap">${doc.notes}</p>` : ''}
<table role="presentation" style="margin:16px 0"><tr><td style="padding-right:16px">${labels.total}</td><td><strong>${doc.total}</strong></td></tr></table>
<p><a href="${doc.hostedUrl ?? ''}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1f4fd1;color:#fff;text-decoration:none">${labels.viewAndDownload}</a></p>
<p>${from}</p>
</body></html>`;
  return { subject, html: String(body), text, replyTo: doc.issuer.email };
}
