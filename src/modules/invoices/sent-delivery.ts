// What happens to an invoice or credit note once it is sent, beyond its email: the rooms built on invoices register
// it at start (src/registrations.ts), so sending does not import them. Inbound documents delivers the e-invoice to
// a workspace of this service that the client's Peppol id names (§21 "Between workspaces").
import type { WorkspaceContext } from '../../lib/context';
import type { EventObject } from '../events/types';

/** A document just sent (an invoice) or issued (a credit note), with its buyer as it was snapshotted. */
export type SentDocument = {
  kind: 'invoice' | 'credit_note';
  id: string;
  /** The record as the API returns it, for the events a delivery writes. */
  object: EventObject;
  buyer: { peppol_id?: string | null; vat_id?: string | null } | null;
};

export type SentBuyer = SentDocument['buyer'];

/** The buyer an invoice was sent to, from its `bill_to` snapshot (JSON text). */
export const parsedBillTo = (billTo: string | null): SentBuyer => (billTo ? (JSON.parse(billTo) as NonNullable<SentBuyer>) : null);

export type SentDelivery = (ctx: WorkspaceContext, sent: SentDocument) => Promise<void>;

const registered: SentDelivery[] = [];

export function registerSentDelivery(delivery: SentDelivery): void {
  registered.push(delivery);
}

/**
 * Runs every registered delivery of a document whose sending is done. A delivery that fails is logged, never
 * thrown: the document is sent, and its answer says so.
 */
export async function deliverSent(ctx: WorkspaceContext, sent: SentDocument): Promise<void> {
  for (const delivery of registered) {
    try {
      await delivery(ctx, sent);
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', message: 'a sent document was not delivered', kind: sent.kind, id: sent.id, reason: String(err) }));
    }
  }
}
