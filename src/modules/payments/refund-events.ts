// A refund's later state, as its provider reports it (Stripe: `refund.updated`, `refund.failed`,
// `charge.refund.updated`): a refund still `pending` here settles by it. The refund is found by our
// id (the provider carries it back) or the provider's, always within the provider's workspace; one
// already settled is left as it is, so an event delivered twice or late changes nothing.
import { and, eq, or } from 'drizzle-orm';
import { refunds, workspaces } from '../../db/schema';
import { systemContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import type { ProviderRow } from './connection';
import { PAYMENTS_JOB, type ProviderEvent } from './providers/provider';
import { settleFailed, settleMade } from './refund-settlement';

export async function settleFromProvider(env: Env, providerRow: ProviderRow, event: Extract<ProviderEvent, { kind: 'refund' }>): Promise<'settled' | 'ignored'> {
  const db = createDb(env.DB);
  const which = event.refundId ? or(eq(refunds.id, event.refundId), eq(refunds.providerRefundId, event.providerRefundId)) : eq(refunds.providerRefundId, event.providerRefundId);
  const [found] = await db
    .select({ refund: refunds, timeZone: workspaces.timeZone })
    .from(refunds)
    .innerJoin(workspaces, eq(workspaces.id, refunds.workspaceId))
    .where(and(which, eq(refunds.workspaceId, providerRow.workspaceId)));
  if (!found || found.refund.status !== 'pending' || event.status === 'pending') return 'ignored';
  const ctx = systemContext(env, providerRow.workspaceId, PAYMENTS_JOB, found.timeZone);
  const settled = event.status === 'failed'
    ? await settleFailed(ctx, found.refund, event.providerRefundId, 'the provider reports the refund failed')
    : await settleMade(ctx, found.refund, event.providerRefundId, 'succeeded');
  return settled.status === 'pending' ? 'ignored' : 'settled';
}
