// What inbound documents hand the rooms below them at start (src/registrations.ts): the delivery of a sent invoice
// or credit note to the workspace of this service that its client's Peppol id names (§21 "Between workspaces").
// The delivery's code loads only for a client with a Peppol id, so a send to anyone else costs nothing more.
import { registerSentDelivery } from '../invoices/sent-delivery';

registerSentDelivery(async (ctx, sent) => {
  if (!sent.buyer?.peppol_id) return;
  const { deliverOverNetwork } = await import('./network-delivery');
  await deliverOverNetwork(ctx, sent);
});
