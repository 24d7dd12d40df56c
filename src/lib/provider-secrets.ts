// The secrets a workspace gives its providers (a payment provider's keys, a payout provider's API
// token) and the account numbers a payout needs, sealed at rest under one key from the environment,
// PAYMENTS_ENCRYPTION_KEY (lib/secret-box.ts does the sealing). Each sealed value is bound to its
// record and field by `context`, so a copy on another record does not open.
import { config } from '../config';
import { open, seal } from './secret-box';

export function providerSealingKey(env: Env): string {
  const key = config(env).PAYMENTS_ENCRYPTION_KEY;
  if (!key) throw new Error('PAYMENTS_ENCRYPTION_KEY is not set: provider secrets and payout account numbers cannot be sealed or opened.');
  return key;
}

export const sealProviderSecret = (env: Env, secret: string, context: string) => seal(providerSealingKey(env), secret, context);

export const openProviderSecret = (env: Env, stored: string, context: string) => open(providerSealingKey(env), stored, context);

/** What may be shown of a secret or an account number: its last four characters. */
export const lastFour = (value: string) => value.slice(-4);
