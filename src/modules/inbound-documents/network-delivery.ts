// §21 "Between workspaces": an invoice or credit note sent to a client whose Peppol id is the issuer's of another
// workspace on this service reaches that workspace's inbound documents at once, as its UBL (Peppol BIS 3.0), the
// e-invoice a Peppol access point would have carried; the sender's side records `invoice.delivered` (a credit
// note's, `credit_note.delivered`). The document enters through receiveDocument like any other (`source:
// "network"`, the receiver's daily limit, its queue), in the receiver's own database. A document that cannot be a
// valid UBL yet (the sender's own Peppol id, a buyer reference) is not delivered: its e-invoice check says why.
import type { WorkspaceContext } from '../../lib/context';
import { systemContext } from '../../lib/context';
import { withDatabase } from '../../lib/databases';
import { creditNoteValueOf, creditNoteWithParties } from '../credit-notes/documents';
import { renderEInvoice } from '../documents/einvoice';
import { recordEvent } from '../events/record';
import { invoiceValueOf } from '../invoices/document-for';
import type { SentDocument } from '../invoices/sent-delivery';
import { getInvoiceWithParties } from '../invoices/service';
import { findNetworkRecipient } from './network-recipient';
import { receiveDocument } from './receive';

/** Who the receiver's events name as the actor. */
const NETWORK_JOB = 'network delivery';

export async function deliverOverNetwork(ctx: WorkspaceContext, sent: SentDocument): Promise<void> {
  const peppolId = sent.buyer?.peppol_id;
  if (!peppolId) return;
  const recipient = await findNetworkRecipient(ctx.env, { peppolId, vatId: sent.buyer?.vat_id ?? null }, ctx.workspaceId);
  if (!recipient) return;

  const value = sent.kind === 'invoice'
    ? await invoiceValueOf(ctx, await getInvoiceWithParties(ctx, sent.id))
    : await creditNoteValueOf(ctx, await creditNoteWithParties(ctx, sent.id));
  const ubl = renderEInvoice(value, 'ubl');
  if (ubl.xml === null) {
    console.warn(JSON.stringify({
      level: 'warn', message: 'not delivered to the client\'s workspace: not a valid UBL e-invoice yet', kind: sent.kind, id: sent.id,
      problems: ubl.problems.map((problem) => problem.path),
    }));
    return;
  }

  const receiver = systemContext(withDatabase(ctx.env, recipient.database), recipient.workspaceId, NETWORK_JOB, recipient.timeZone);
  await receiveDocument(receiver, {
    source: 'network',
    bytes: new TextEncoder().encode(ubl.xml),
    // As the client would download it (§20).
    filename: `${(value.number ?? sent.id).replace(/[^\w.#-]/g, '_')}.ubl.xml`,
  });
  await recordEvent(ctx, sent.kind === 'invoice' ? 'invoice.delivered' : 'credit_note.delivered', sent.object, { data: { delivered_to: { peppol_id: peppolId } } });
}
