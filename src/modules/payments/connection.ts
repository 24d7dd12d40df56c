// The workspace's payment provider (§16): connected by an admin with its secrets, which are sealed
// at once (lib/secret-box.ts) and opened only for one call to the provider. Never shown again,
// logged, put in an event or replayed: what the API answers is the provider, the key's last four
// characters and the webhook URL to register.
import { config } from '../../config';
import { paymentProviders } from '../../db/schema';
import { invalidField } from '../../errors';
import { inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { newId } from '../../lib/ids';
import { providerSealingKey } from '../../lib/provider-secrets';
import { open, seal } from '../../lib/secret-box';
import { nowIso } from '../../lib/time';
import type { PaymentProvider, ProviderSecrets } from './providers/provider';
import { sandbox } from './providers/sandbox';
import { stripe } from './providers/stripe';
import type { ConnectProviderInput, ProviderName } from './schemas';

export type ProviderRow = typeof paymentProviders.$inferSelect;

const PROVIDERS: Record<ProviderName, PaymentProvider> = { stripe, sandbox };

/** The provider of a name, or undefined where it does not exist (the sandbox outside PAYMENTS_SANDBOX). */
export function providerNamed(env: Env, name: string): PaymentProvider | undefined {
  if (name === 'sandbox' && !config(env).PAYMENTS_SANDBOX) return undefined;
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name as ProviderName] : undefined;
}

const encryptionKey = providerSealingKey;

// The sealed values are bound to their record and field: copied elsewhere, they do not open.
const sealContext = (id: string, field: string) => `payment_provider:${id}:${field}`;

export async function secretsOf(env: Env, row: ProviderRow): Promise<ProviderSecrets> {
  const key = encryptionKey(env);
  return {
    secretKey: row.secretKeySealed ? await open(key, row.secretKeySealed, sealContext(row.id, 'secret_key')) : null,
    webhookSecret: await open(key, row.webhookSecretSealed, sealContext(row.id, 'webhook_secret')),
  };
}

export const webhookUrl = (origin: string, row: Pick<ProviderRow, 'id' | 'provider'>) => `${origin}/webhooks/payments/${row.provider}/${row.id}`;

export const serializeProvider = (row: ProviderRow | undefined, origin: string) =>
  row
    ? { provider: row.provider, connected: true, key_last4: row.keyLast4, webhook_url: webhookUrl(origin, row), test_mode: row.testMode }
    : { provider: null, connected: false, key_last4: null, webhook_url: null, test_mode: false };

/** The workspace's connected provider, if it may be used here (the sandbox only where it exists). */
export async function connectedProvider(ctx: WorkspaceContext): Promise<{ row: ProviderRow; provider: PaymentProvider } | undefined> {
  const [row] = await ctx.db.select().from(paymentProviders).where(inWorkspace(ctx, paymentProviders));
  const provider = row && providerNamed(ctx.env, row.provider);
  return row && provider ? { row, provider } : undefined;
}

export async function getProviderSetting(ctx: WorkspaceContext): Promise<ProviderRow | undefined> {
  return (await connectedProvider(ctx))?.row;
}

/** PUT: connects the provider, or replaces its settings; the webhook URL stays the same. */
export async function connectProvider(ctx: ServiceContext, input: ConnectProviderInput): Promise<ProviderRow> {
  const provider = providerNamed(ctx.env, input.provider);
  if (!provider) throw invalidField('provider', 'The sandbox provider is only available where PAYMENTS_SANDBOX is "true" (not in production): connect Stripe.');
  const connection = provider.connect(input.provider === 'stripe' ? input : {});
  const key = encryptionKey(ctx.env);
  const [existing] = await ctx.db.select({ id: paymentProviders.id, createdAt: paymentProviders.createdAt }).from(paymentProviders).where(inWorkspace(ctx, paymentProviders));
  const id = existing?.id ?? newId('paymentProvider');
  const now = nowIso();
  const row: ProviderRow = {
    id,
    workspaceId: ctx.workspaceId,
    provider: provider.name,
    secretKeySealed: connection.secretKey ? await seal(key, connection.secretKey, sealContext(id, 'secret_key')) : null,
    webhookSecretSealed: await seal(key, connection.webhookSecret, sealContext(id, 'webhook_secret')),
    keyLast4: connection.keyLast4,
    testMode: connection.testMode,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  const { id: _id, workspaceId: _ws, createdAt: _c, ...changes } = row;
  await ctx.db.insert(paymentProviders).values(row).onConflictDoUpdate({ target: paymentProviders.workspaceId, set: changes });
  return row;
}

export async function disconnectProvider(ctx: ServiceContext): Promise<void> {
  await ctx.db.delete(paymentProviders).where(inWorkspace(ctx, paymentProviders));
}

/**
 * The provider a webhook URL names, with the env of the database its workspace lives on. The URL
 * names no database, so each one that holds workspaces is asked in turn, DB first.
 */
