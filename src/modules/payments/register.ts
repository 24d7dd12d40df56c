// What payments hand the rooms below them at start (src/registrations.ts): the receipt the emails
// consumer sends for a payment, and the pay panel of the hosted invoice page. Their code loads on
// first use, so a worker started for another request does not build it.
import { registerEmailRenderer } from '../emails/renderers';
import { registerHostedPanel } from '../invoices/hosted-panel';

registerEmailRenderer(['receipt'], async (ctx, row) => {
  const [{ documentById }, { composeReceipt }] = await Promise.all([import('../invoices/document-for'), import('./receipt')]);
  const doc = await documentById(ctx, row.invoiceId, row.linkOrigin);
  return composeReceipt(ctx, doc, row.paymentId);
});

registerHostedPanel(async (c, found) => {
  const [{ payPanel }, { panelInput }] = await Promise.all([import('./pay-panel'), import('./public-routes')]);
  return payPanel(panelInput(c, found), c);
});
