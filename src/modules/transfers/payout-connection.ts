// The workspace's payout provider (§6 "Real payouts"), set by an admin like the payment provider
// (§16): `wise` with an API token, sealed at once (lib/provider-secrets.ts) and opened only to call
// Wise, never shown again, logged, put in an event or replayed; or the `sandbox`, which exists only
// where PAYMENTS_SANDBOX is "true". A workspace with no provider set pays out through the sandbox
// where it exists; in production it cannot send money at all (409 payouts_not_configured).
import { and, eq } from 'drizzle-orm';
import { config } from '../../config';
import { payoutProviders } from '../../db/schema';
import { ApiError, invalidField } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { newId } from '../../lib/ids';
import { lastFour, openProviderSecret, sealProviderSecret } from '../../lib/provider-secrets';
import { nowIso } from '../../lib/time';
import { type PayoutProvider, sandboxProvider } from './payout-provider';
import { wiseProvider } from './providers/wise';
import type { ConnectPayoutProviderInput } from './schemas';

export type PayoutProviderRow = typeof payoutProviders.$inferSelect;
export type PayoutProviderName = PayoutProviderRow['provider'];

const sealContext = (id: string) => `payout_provider:${id}:api_token`;

export const WISE_WEBHOOK_PATH = '/webhooks/payouts/wise';

export const serializePayoutProvider = (row: PayoutProviderRow | undefined, origin: string) =>
  row
    ? { provider: row.provider, connected: true, token_last4: row.tokenLast4, profile_id: row.profileId, webhook_url: row.provider === 'wise' ? `${origin}${WISE_WEBHOOK_PATH}` : null }
    : { provider: null, connected: false, token_last4: null, profile_id: null, webhook_url: null };

export async function getPayoutProvider(ctx: WorkspaceContext): Promise<PayoutProviderRow | undefined> {
  const [row] = await ctx.db.select().from(payoutProviders).where(inWorkspace(ctx, payoutProviders));
  return row;
}

export async function connectPayoutProvider(ctx: ServiceContext, input: ConnectPayoutProviderInput): Promise<PayoutProviderRow> {
  if (input.provider === 'sandbox' && !config(ctx.env).PAYMENTS_SANDBOX) {
    throw invalidField('provider', 'The sandbox payout provider is only available where PAYMENTS_SANDBOX is "true" (not in production): connect Wise.');
  }
  const [existing] = await ctx.db.select({ id: payoutProviders.id, createdAt: payoutProviders.createdAt }).from(payoutProviders).where(inWorkspace(ctx, payoutProviders));
  const id = existing?.id ?? newId('payoutProvider');
  const now = nowIso();
  const row: PayoutProviderRow = {
    id,
    workspaceId: ctx.workspaceId,
    provider: input.provider,
    apiTokenSealed: input.provider === 'wise' ? await sealProviderSecret(ctx.env, input.api_token, sealContext(id)) : null,
    profileId: input.provider === 'wise' ? input.profile_id : null,
    tokenLast4: input.provider === 'wise' ? lastFour(input.api_token) : null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  const { id: _id, workspaceId: _ws, createdAt: _c, ...changes } = row;
  await ctx.db.insert(payoutProviders).values(row).onConflictDoUpdate({ target: payoutProviders.workspaceId, set: changes });
  return row;
}

export async function disconnectPayoutProvider(ctx: ServiceContext): Promise<void> {
  await ctx.db.delete(payoutProviders).where(inWorkspace(ctx, payoutProviders));
}

/**
 * Who pays out a transfer created now: the workspace's Wise, else the sandbox where it exists;
 * in production, with no real provider, nobody (409: never a pretend payout).
 */
export async function payoutProviderForNewTransfer(ctx: WorkspaceContext): Promise<PayoutProviderName> {
  const row = await getPayoutProvider(ctx);
  if (row?.provider === 'wise') return 'wise';
  if (config(ctx.env).PAYMENTS_SANDBOX) return 'sandbox';
  throw new ApiError('payouts_not_configured', 'This workspace has no payout provider: an admin connects Wise with PUT /api/workspace/payout-provider before money can be sent.');
}

/** The Wise API as the workspace's stored token, or undefined when Wise is no longer connected. */
export async function workspaceWise(ctx: WorkspaceContext) {
  const [row] = await ctx.db.select().from(payoutProviders).where(and(inWorkspace(ctx, payoutProviders), eq(payoutProviders.provider, 'wise')));
  if (!row?.apiTokenSealed || !row.profileId) return undefined;
  const token = await openProviderSecret(ctx.env, row.apiTokenSealed, sealContext(row.id));
  return wiseProvider({ apiBase: config(ctx.env).WISE_API_BASE, token, profileId: row.profileId });
}

/** The provider that pays out a stored transfer, by the name it was created with. */
export async function providerOfTransfer(ctx: WorkspaceContext, providerName: string | null): Promise<PayoutProvider | undefined> {
  if (providerName === 'wise') return workspaceWise(ctx);
  return sandboxProvider;
}
