import { z } from '@hono/zod-openapi';
import { currencySchema, idSchema, listQuery, oneOfBy, pageOf, positiveMinorAmount, text, timestampSchema } from '../../lib/schemas';
import { MaskedRecipient } from './account';
import { Recipient } from './recipient';

export const TransferStatus = z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']);

const sourceAmount = positiveMinorAmount('Amount to send, fee included, in minor units of source_currency.');

export const CreateTransferBody = z
  .strictObject({
    quote_id: idSchema('transferQuote').optional().openapi({ description: 'A quote from POST /v1/remit/quotes: the transfer gets exactly its terms while it lives (30 minutes), once. The currencies and amount then come from the quote; if sent too they must match it.' }),
    source_currency: currencySchema.optional().openapi({ description: 'Required without `quote_id`.' }),
    target_currency: currencySchema.optional().openapi({ description: 'Required without `quote_id`.' }),
    source_amount: sourceAmount.optional(),
    recipient: Recipient,
    reference: text(140).nullish().openapi({ description: 'Shown to the recipient.' }),
  })
  .superRefine((body, ctx) => {
    if (body.quote_id) return;
    for (const field of ['source_currency', 'target_currency', 'source_amount'] as const) {
      if (body[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'Required unless the transfer names a quote_id.' });
    }
  })
  .openapi('CreateTransfer');

export const CreateTransferQuoteBody = z
  .strictObject({ source_currency: currencySchema, target_currency: currencySchema, source_amount: sourceAmount })
  .openapi('CreateTransferQuote');

export const TransferQuote = z
  .object({
    id: idSchema('transferQuote'),
    source_currency: z.string(),
    source_amount: z.number().int(),
    fee: z.number().int(),
    target_currency: z.string(),
    target_amount: z.number().int(),
    rate: z.string().openapi({ example: '0.9213000000' }),
    rate_as_of: timestampSchema,
    expires_at: timestampSchema.openapi({ description: '30 minutes after it was made: a transfer naming it after this is a 409.' }),
    created_at: timestampSchema,
  })
  .openapi('TransferQuote');

export const Transfer = z
  .object({
    id: idSchema('transfer'),
    status: TransferStatus,
    source_currency: z.string(),
    source_amount: z.number().int(),
    fee: z.number().int().openapi({ description: 'Our estimate is ceil(source_amount × 0.5 %) + the source-currency equivalent of USD 1.00, rounded up; once a real provider has priced the transfer, its own fee.' }),
    target_currency: z.string(),
    target_amount: z.number().int().openapi({ description: '(source_amount − fee) × rate, rounded down; once a real provider has priced the transfer, what it pays out.' }),
    rate: z.string().openapi({ description: 'Units of target per unit of source, as a decimal string: exactly the rate used (the provider\'s, once it has priced the transfer).', example: '0.9213000000' }),
    rate_as_of: timestampSchema,
    recipient: MaskedRecipient,
    reference: z.string().nullable(),
    quote_id: z.string().nullable(),
    provider: z.string().nullable().openapi({ description: '`wise`, or `sandbox` where the development sandbox pays out.' }),
    provider_transfer_id: z.string().nullable().openapi({ description: 'The provider\'s own id of the transfer, once it has one.' }),
    failure_reason: z.string().nullable(),
    status_history: z.array(z.object({ status: TransferStatus, at: timestampSchema })),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Transfer');

export const TransferQuery = listQuery.extend({ status: TransferStatus.optional() });
export const TransferPage = pageOf(Transfer);

export const ConnectPayoutProviderBody = oneOfBy('provider', 'a payout provider', [
    z.strictObject({
      provider: z.literal('wise'),
      api_token: z.string().trim().min(16).max(200).regex(/^[A-Za-z0-9._-]+$/, 'A Wise API token.').openapi({ description: 'A Wise API token of the profile that pays (Settings → API tokens). Stored encrypted; never shown again.' }),
      profile_id: z.string().trim().regex(/^\d{1,20}$/, 'A Wise profile id (digits).').openapi({ description: 'The Wise profile the transfers are paid from, funded from its balance.', example: '12345678' }),
    }),
    z.strictObject({ provider: z.literal('sandbox') }),
  ])
  .openapi('ConnectPayoutProvider');

export const PayoutProvider = z
  .object({
    provider: z.enum(['wise', 'sandbox']).nullable(),
    connected: z.boolean(),
    token_last4: z.string().nullable().openapi({ description: 'The last four characters of the Wise token, to tell tokens apart.' }),
    profile_id: z.string().nullable(),
    webhook_url: z.string().nullable().openapi({ description: 'Subscribe Wise\'s `transfers#state-change` webhook to this address.' }),
  })
  .openapi('PayoutProvider');

export type CreateTransferInput = z.infer<typeof CreateTransferBody>;
export type CreateTransferQuoteInput = z.infer<typeof CreateTransferQuoteBody>;
export type ConnectPayoutProviderInput = z.infer<typeof ConnectPayoutProviderBody>;
