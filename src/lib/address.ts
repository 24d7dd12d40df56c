// A postal address as a client and the workspace (the two parties of a document) give it, and as the
// API shows it on them and on an invoice's snapshots.
import { z } from '@hono/zod-openapi';
import { countrySchema, text } from './schemas';

export const AddressInput = z
  .strictObject({
    line1: text(200).nullish(),
    line2: text(200).nullish(),
    city: text(100).nullish(),
    region: text(100).nullish(),
    postal_code: text(20).nullish(),
    country: countrySchema.nullish(),
  })
  .openapi('AddressInput');

export const Address = z
  .object({
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string().nullable(),
  })
  .openapi('Address');
