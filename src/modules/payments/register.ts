// What payments hand the rooms below them at start (src/registrations.ts): the receipt the emails
// consumer sends for a payment. The code loads on the first receipt, so a worker started for a
// request does not build it.
import { registerEmailRenderer } from '../emails/renderers';

registerEmailRenderer(['receipt'], async (ctx, row) => {
  const [{ documentById }, { composeReceipt }] = await Promise.all([import('../invoices/document-for'), import('./receipt')]);
  const doc = await documentById(ctx, row.invoiceId, row.linkOrigin);
  return composeReceipt(ctx, doc, row.paymentId);
});
