// A recipient's account number is shown to nobody after it is sent (§6): the transfer keeps the
// masked form ({iban_last4, country} or {account_number_last4, bank_code}) in `recipient`, which
// every read, event, webhook and log line is made from, and the whole account sealed in
// `account_sealed`, opened only to pay out.
import { z } from '@hono/zod-openapi';
import { lastFour, openProviderSecret, sealProviderSecret } from '../../lib/provider-secrets';
import type { RecipientValue } from './recipient';

export const MaskedAccount = z
  .union([
    z.object({ iban_last4: z.string(), country: z.string().openapi({ description: 'The IBAN\'s country.' }) }),
    z.object({ account_number_last4: z.string(), bank_code: z.string() }),
  ])
  .openapi('MaskedAccount', { description: 'Never the whole number: it is kept only to pay out.' });

export const MaskedRecipient = z.object({ name: z.string(), country: z.string(), account: MaskedAccount }).openapi('MaskedRecipient');

export type FullAccount = RecipientValue['account'];
export type MaskedAccountValue = z.infer<typeof MaskedAccount>;
export type MaskedRecipientValue = z.infer<typeof MaskedRecipient>;

/** The account as it may be shown; already masked stays as it is (so reading an old row is safe too). */
export function maskAccount(account: FullAccount | MaskedAccountValue): MaskedAccountValue {
  if ('iban' in account) return { iban_last4: lastFour(account.iban), country: account.iban.slice(0, 2) };
  if ('account_number' in account) return { account_number_last4: lastFour(account.account_number), bank_code: account.bank_code };
  return account;
}

export const maskRecipient = (recipient: { name: string; country: string; account: FullAccount | MaskedAccountValue }): MaskedRecipientValue => ({
  name: recipient.name,
  country: recipient.country,
  account: maskAccount(recipient.account),
});

const sealContext = (transferId: string) => `transfer:${transferId}:account`;

export const sealAccount = (env: Env, transferId: string, account: FullAccount) => sealProviderSecret(env, JSON.stringify(account), sealContext(transferId));

/**
 * The whole recipient, for the payout only. A transfer stored before accounts were sealed kept the
 * whole account in `recipient`.
 */
export async function recipientToPay(env: Env, row: { id: string; recipient: string; accountSealed: string | null }): Promise<RecipientValue> {
  const stored = JSON.parse(row.recipient) as RecipientValue;
  if (!row.accountSealed) return stored;
  return { ...stored, account: JSON.parse(await openProviderSecret(env, row.accountSealed, sealContext(row.id))) as FullAccount };
}
