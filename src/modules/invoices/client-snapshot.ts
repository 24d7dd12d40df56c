// What an invoice keeps of its client and its workspace when it is sent (§10): from then on it shows
// these, whatever later edits of the client or the workspace say.
import type { clients, workspaces } from '../../db/schema';
import { issuerOf } from '../workspaces/settings';
import type { BillToSnapshot, IssuerSnapshot } from './serialize';

export function billToOf(client: typeof clients.$inferSelect): BillToSnapshot {
  return {
    name: client.name,
    email: client.email,
    company: client.company,
    address: {
      line1: client.addressLine1, line2: client.addressLine2, city: client.addressCity, region: client.addressRegion,
      postal_code: client.addressPostalCode, country: client.addressCountry,
    },
    tax_id: client.taxId,
    vat_id: client.taxId,
    peppol_id: client.peppolId,
    buyer_reference: client.buyerReference,
  };
}

export function issuerSnapshotOf(workspace: typeof workspaces.$inferSelect): IssuerSnapshot {
  return { name: workspace.name, ...issuerOf(workspace) };
}
