// What invoices hand the rooms below them at start (src/registrations.ts): the invoice and reminder
// emails the emails consumer sends. The code loads on the first email, so a worker started for a
// request does not build it.
import { registerEmailRenderer } from '../emails/renderers';

registerEmailRenderer(['invoice', 'reminder'], async (ctx, row) => {
  const [{ documentById }, { composeInvoiceEmail }] = await Promise.all([import('./document-for'), import('../documents/render/email')]);
  const doc = await documentById(ctx, row.invoiceId, row.linkOrigin);
  return composeInvoiceEmail(doc, row.kind as 'invoice' | 'reminder', row.message);
});
