// The layout every document's email shares (§10, §17): a greeting, a lead line, the sender's message,
// a small table of figures, a button to the hosted page and the issuer's name, as HTML and as text,
// in the document's language. A reply goes to the issuer's email.
import { html } from 'hono/html';
import type { ComposedEmail } from '../../emails/providers';
import type { PrintedDocument } from './printed';

export interface DocumentEmailParts {
  subject: string;
  lead: string;
  /** A free text under the lead (the sender's message, a credit note's notes), kept as written. */
  message: string | null;
  /** Label and value, the first value in bold. */
  rows: Array<[label: string, value: string]>;
  /** The button's words (the text part always says "view and download"). */
  button: string;
}

export function composeDocumentEmail(doc: PrintedDocument, parts: DocumentEmailParts): ComposedEmail {
  const { labels } = doc;
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  const text = [
    labels.hello(doc.billTo.name),
    '',
    parts.lead,
    ...(parts.message ? ['', parts.message] : []),
    '',
    ...parts.rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `${labels.viewAndDownload}: ${doc.hostedUrl}`,
    '',
    from,
  ].join('\n');
  const rows = parts.rows.map(([label, value], i) =>
    html`<tr><td style="padding-right:16px">${label}</td><td>${i === 0 ? html`<strong>${value}</strong>` : value}</td></tr>`);
  const body = html`<!doctype html>
<html lang="${doc.locale}"><body style="font-family:system-ui,sans-serif;color:#1c1f24;line-height:1.5">
<p>${labels.hello(doc.billTo.name)}</p>
<p>${parts.lead}</p>
${parts.message ? html`<p style="white-space:pre-wrap">${parts.message}</p>` : ''}
<table role="presentation" style="margin:16px 0">${rows}</table>
<p><a href="${doc.hostedUrl ?? ''}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1f4fd1;color:#fff;text-decoration:none">${parts.button}</a></p>
<p>${from}</p>
</body></html>`;
  return { subject: parts.subject, html: String(body), text, replyTo: doc.issuer.email };
}
