import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { users, workspaceColumn } from './workspaces';

export const transfers = sqliteTable(
  'transfers',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    status: text('status', { enum: ['pending', 'processing', 'completed', 'failed', 'cancelled'] }).notNull(),
    sourceCurrency: text('source_currency').notNull(),
    sourceAmount: integer('source_amount').notNull(),
    fee: integer('fee').notNull(),
    targetCurrency: text('target_currency').notNull(),
    targetAmount: integer('target_amount').notNull(),
    // Decimal string (target units per source unit), exact as quoted: never a float in money math.
    rate: text('rate').notNull(),
    rateAsOf: text('rate_as_of').notNull(),
    // JSON: {name, country, account:{iban} | {account_number, bank_code}}
    recipient: text('recipient').notNull(),
    reference: text('reference'),
    failureReason: text('failure_reason'),
    // JSON array of {status, at}
    statusHistory: text('status_history').notNull(),
    payoutId: text('payout_id'),
    enqueuedAt: text('enqueued_at'),
    // While a consumer is paying out, it holds the transfer until this time. A redelivered message
    // finds it held and waits; after a crash the lease runs out and the next delivery takes over.
    leaseUntil: text('lease_until'),
    ...timestamps,
    // The quote (transfer_quotes) whose terms it took, if any.
    quoteId: text('quote_id'),
    // The whole account number (IBAN or local number), sealed (lib/secret-box.ts) and opened only to
    // pay out; `recipient` holds the masked form every read, event and log line shows.
    accountSealed: text('account_sealed'),
    // Who pays it out ('sandbox' | 'wise'), chosen when it is created, and the provider's own
    // transfer id and last state once the provider has it.
    provider: text('provider'),
    providerTransferId: text('provider_transfer_id'),
    providerStatus: text('provider_status'),
  },
  (t) => [
    index('transfers_workspace_idx').on(t.workspaceId, t.id),
    index('transfers_status_updated_idx').on(t.status, t.updatedAt),
    index('transfers_provider_transfer_idx').on(t.provider, t.providerTransferId),
    check('transfers_amounts_valid', sql`${t.sourceAmount} > 0 AND ${t.fee} >= 0 AND ${t.targetAmount} >= 0`),
  ],
);

// A transfer's price held for 30 minutes (§6 "Quote first"): a transfer naming it gets exactly
// these terms while it lives; `used_by` is set, under a guard, by the one transfer that uses it.
export const transferQuotes = sqliteTable(
  'transfer_quotes',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    sourceCurrency: text('source_currency').notNull(),
    sourceAmount: integer('source_amount').notNull(),
    fee: integer('fee').notNull(),
    targetCurrency: text('target_currency').notNull(),
    targetAmount: integer('target_amount').notNull(),
    rate: text('rate').notNull(),
    rateAsOf: text('rate_as_of').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedBy: text('used_by'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('transfer_quotes_workspace_idx').on(t.workspaceId, t.id)],
);

// The workspace's payout provider (§6 "Real payouts"): `wise` with its API token sealed at rest,
// or the development-only `sandbox`. One per workspace.
export const payoutProviders = sqliteTable(
  'payout_providers',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    provider: text('provider', { enum: ['wise', 'sandbox'] }).notNull(),
    apiTokenSealed: text('api_token_sealed'),
    profileId: text('profile_id'),
    tokenLast4: text('token_last4'),
    ...timestamps,
  },
  (t) => [uniqueIndex('payout_providers_workspace_uq').on(t.workspaceId)],
);
