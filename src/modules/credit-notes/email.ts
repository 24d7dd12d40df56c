// The email that carries a credit note to the client (§17, kind `credit_note`): the invoice's email
// layout with what the credit note says: its number, the invoice it corrects, its total and its link.
import type { ComposedEmail } from '../emails/providers';
import { composeDocumentEmail } from '../documents/render/email-layout';
import type { PrintedDocument } from '../documents/render/printed';

export function composeCreditNoteEmail(doc: PrintedDocument): ComposedEmail {
  const { labels } = doc;
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  return composeDocumentEmail(doc, {
    subject: labels.creditNoteFrom(doc.number, from),
    lead: `${doc.credit?.title ?? labels.creditNote} ${doc.number}: ${doc.credit?.corrects ?? ''}`,
    message: doc.notes,
    rows: [[labels.total, doc.total]],
    button: labels.viewAndDownload,
  });
}
