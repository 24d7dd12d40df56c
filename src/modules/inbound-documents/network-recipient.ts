// §21 "Between workspaces": the workspace on this service that a document sent to a Peppol id reaches, found on
// the directory by its issuer's `peppol_id` (workspaces_issuer_peppol_idx; Peppol ids compare without regard to
// case). An issuer's Peppol id is typed by its own admin and checked by no one, so a delivery goes only where it
// cannot be mistaken: to the one other workspace that claims the id (two claims name no one), and not when the
// sender's client record states a VAT id that this workspace's issuer contradicts.
import { sql } from 'drizzle-orm';
import { workspaces } from '../../db/schema';
import { createDb } from '../../lib/db';
import { databaseBinding, databaseOf, DIRECTORY } from '../../lib/databases';
import { compactVatId } from '../../lib/party-ids';
import { issuerOf } from '../workspaces/settings';

export type NetworkRecipient = { workspaceId: string; database: string; timeZone: string };

/** The sent document's buyer as its snapshot states it. */
export type Buyer = { peppolId: string; vatId: string | null };

const issuerPeppolKey = sql`lower(json_extract(${workspaces.issuer}, '$.peppol_id'))`;

/** The workspaces other than the sender's whose issuer claims `peppolId`: at most two are read, enough to see a tie. */
export function claimsOf(directory: ReturnType<typeof createDb>, peppolId: string, senderWorkspaceId: string) {
  return directory
    .select({ id: workspaces.id, database: workspaces.database, timeZone: workspaces.timeZone, issuer: workspaces.issuer })
    .from(workspaces)
    .where(sql`${issuerPeppolKey} = ${peppolId.trim().toLowerCase()} AND ${workspaces.id} != ${senderWorkspaceId}`)
    .limit(2);
}

export async function findNetworkRecipient(env: Env, buyer: Buyer, senderWorkspaceId: string): Promise<NetworkRecipient | null> {
  const claims = await claimsOf(createDb(databaseBinding(env, DIRECTORY)), buyer.peppolId, senderWorkspaceId);
  if (claims.length !== 1) {
    if (claims.length > 1) warn('two workspaces claim the Peppol id; delivered to neither', buyer, senderWorkspaceId);
    return null;
  }
  const [claim] = claims as [(typeof claims)[number]];
  const issuerVatId = issuerOf(claim).vat_id;
  if (buyer.vatId && issuerVatId && compactVatId(buyer.vatId) !== compactVatId(issuerVatId)) {
    warn('the workspace claiming the Peppol id states another VAT id than the client; not delivered', buyer, senderWorkspaceId);
    return null;
  }
  return { workspaceId: claim.id, database: databaseOf(claim), timeZone: claim.timeZone };
}

function warn(message: string, buyer: Buyer, senderWorkspaceId: string) {
  console.warn(JSON.stringify({ level: 'warn', message, peppol_id: buyer.peppolId, workspace_id: senderWorkspaceId }));
}
