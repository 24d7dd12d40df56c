// The email that carries an invoice, or a reminder of one (§10, §12): a subject with the issuer and
// the number, HTML and text parts with the amount due, the due date, the sender's message and the
// hosted link, all in the invoice's language with its amounts formatted in its locale. No attachment:
// the link leads to the page and its PDF.
import type { ComposedEmail } from '../../emails/providers';
import { composeDocumentEmail } from './email-layout';
import type { PrintedDocument } from './printed';

export function composeInvoiceEmail(doc: PrintedDocument, kind: 'invoice' | 'reminder', message: string | null): ComposedEmail {
  const { labels } = doc;
  const from = doc.issuer.legal_name ?? doc.issuer.name;
  return composeDocumentEmail(doc, {
    subject: kind === 'reminder' ? labels.reminderSubject(doc.number, from, doc.dueDate) : labels.invoiceFrom(doc.number, from),
    lead: kind === 'reminder' ? labels.reminderLead(doc.number, doc.dueDate) : labels.sentYou(from, doc.number),
    message,
    rows: [[labels.amountDue, doc.amountDue], [labels.dueDate, doc.dueDate]],
    button: labels.viewInvoice(doc.number),
  });
}
