import { z } from '@hono/zod-openapi';
import { currencySchema, idSchema, listQuery, pageOf, positiveMinorAmount, text, timestampSchema } from '../../lib/schemas';
import { Recipient } from './recipient';

export const TransferStatus = z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']);

export const CreateTransferBody = z
  .strictObject({
    source_currency: currencySchema,
    target_currency: currencySchema,
    source_amount: positiveMinorAmount('Amount to send, fee included, in minor units of source_currency.'),
    recipient: Recipient,
    reference: text(140).nullish().openapi({ description: 'Shown to the recipient.' }),
  })
  .openapi('CreateTransfer');

export const Transfer = z
  .object({
    id: idSchema('transfer'),
    status: TransferStatus,
    source_currency: z.string(),
    source_amount: z.number().int(),
    fee: z.number().int().openapi({ description: 'ceil(source_amount × 0.5 %) + the source-currency equivalent of USD 1.00, rounded up.' }),
    target_currency: z.string(),
    target_amount: z.number().int().openapi({ description: '(source_amount − fee) × rate, rounded down.' }),
    rate: z.string().openapi({ description: 'Units of target per unit of source, as a decimal string: exactly the rate used.', example: '0.9213000000' }),
    rate_as_of: timestampSchema,
    recipient: Recipient,
    reference: z.string().nullable(),
    failure_reason: z.string().nullable(),
    status_history: z.array(z.object({ status: TransferStatus, at: timestampSchema })),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Transfer');

export const TransferQuery = listQuery.extend({ status: TransferStatus.optional() });
export const TransferPage = pageOf(Transfer, 'TransferPage');

export type CreateTransferInput = z.infer<typeof CreateTransferBody>;
