import { z } from '@hono/zod-openapi';
import { countrySchema, currencySchema, emailSchema, idSchema, listQuery, longText, pageOf, searchText, text, timestampSchema } from '../../lib/schemas';

export const ClientStatus = z.enum(['active', 'archived']);

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

const clientFields = {
  name: text(200).min(1),
  email: emailSchema.nullish(),
  company: text(200).nullish(),
  phone: text(50).nullish(),
  address: AddressInput.nullish(),
  currency: currencySchema.optional().openapi({ description: 'Default currency of this client\'s invoices. Defaults to the workspace\'s `default_currency` (USD unless set).' }),
  tax_id: text(50).nullish(),
  notes: longText(5000).nullish(),
  status: ClientStatus.optional(),
};

export const CreateClientBody = z.strictObject(clientFields).openapi('CreateClient');
export const UpdateClientBody = z
  .strictObject({ ...clientFields, name: clientFields.name.optional() })
  .openapi('UpdateClient');

export const Client = z
  .object({
    id: idSchema('client'),
    name: z.string(),
    email: z.string().nullable(),
    company: z.string().nullable(),
    phone: z.string().nullable(),
    address: Address,
    currency: z.string(),
    tax_id: z.string().nullable(),
    notes: z.string().nullable(),
    status: ClientStatus,
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Client');

export const ClientQuery = listQuery.extend({
  status: ClientStatus.optional(),
  q: searchText(200).optional().openapi({ description: 'Name or email contains (case-insensitive).' }),
});

export const ClientPage = pageOf(Client, 'ClientPage');

export type CreateClientInput = z.infer<typeof CreateClientBody>;
export type UpdateClientInput = z.infer<typeof UpdateClientBody>;
export type ClientFilter = z.infer<typeof ClientQuery>;
