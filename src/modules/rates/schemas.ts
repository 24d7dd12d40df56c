import { z } from '@hono/zod-openapi';
import { timestampSchema } from '../../lib/schemas';

export const RatesQuery = z.object({
  symbols: z
    .string()
    .max(2000)
    .optional()
    .openapi({ description: 'Comma-separated ISO 4217 codes (EUR,GBP). All known rates when absent.', example: 'EUR,GBP' }),
});

export const Rates = z
  .object({
    base: z.literal('USD'),
    rates: z.record(z.string(), z.number()).openapi({ description: 'Units of each currency per 1 USD.', example: { EUR: 0.9213, GBP: 0.7871 } }),
    as_of: timestampSchema.openapi({ description: 'When the provider published these rates.' }),
    fetched_at: timestampSchema.openapi({ description: 'When we fetched them.' }),
    source: z.string().openapi({ description: 'The provider\'s host, or "sample" for the local seed.' }),
    stale: z.boolean().openapi({ description: 'as_of (the provider\'s publication time) is more than 36 hours ago, however recently it was fetched. Transfers refuse stale rates.' }),
    suspect: z.array(z.string()).openapi({ description: 'Currencies whose latest rate moved by more than a factor of 10 at once: they keep their last good rate until it settles. Empty when none.', example: [] }),
  })
  .openapi('Rates');
