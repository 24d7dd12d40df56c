import { z } from '@hono/zod-openapi';
import { currencySchema, emailSchema, idSchema, listQuery, longText, pageOf, searchText, text, timestampSchema } from '../../lib/schemas';
import { peppolIdSchema, vatIdSchema } from '../../lib/party-ids';
import { Address, AddressInput } from '../../lib/address';
import { TAX_TREATMENTS } from '../../db/schema/clients';
import { localeSchema } from '../../lib/locale';

export const ClientStatus = z.enum(['active', 'archived']);

export const TaxTreatment = z.enum(TAX_TREATMENTS).openapi('TaxTreatment', {
  description: '`auto`: `S` at home or for an EU buyer without `vat_id`, `AE`/`K` (services/goods) with one, `O`/`G` outside the EU; `export`: `O`/`G`.',
});

const clientFields = {
  name: text(200).min(1),
  email: emailSchema.nullish(),
  company: text(200).nullish(),
  phone: text(50).nullish(),
  address: AddressInput.nullish(),
  currency: currencySchema.optional().openapi({ description: 'Default currency of this client\'s invoices. Defaults to the workspace\'s `default_currency` (USD unless set).' }),
  tax_id: text(50).nullish().openapi({ description: 'The client\'s tax or VAT id, any text. The same value as `vat_id`.' }),
  vat_id: vatIdSchema.nullish().openapi({ description: 'BT-48: `tax_id` checked as a VAT id (two letters, 2–13 letters or digits). Send one of the two.' }),
  peppol_id: peppolIdSchema.nullish(),
  buyer_reference: text(100).nullish().openapi({ description: 'BT-10, the reference the client asks its invoices to quote (a German Leitweg-ID); their default `buyer_reference`.' }),
  tax_treatment: TaxTreatment.optional(),
  notes: longText(5000).nullish(),
  locale: localeSchema.nullish(),
  status: ClientStatus.optional(),
};

// Both may be sent only when they say the same.
const oneTaxId = (v: { tax_id?: string | null; vat_id?: string | null }) => v.tax_id === undefined || v.vat_id === undefined || v.tax_id === v.vat_id;
const oneTaxIdIssue = { message: 'tax_id and vat_id are the same field: send one of them (or the same value in both).', path: ['vat_id'] };

export const CreateClientBody = z.strictObject(clientFields).refine(oneTaxId, oneTaxIdIssue).openapi('CreateClient');
export const UpdateClientBody = z
  .strictObject({ ...clientFields, name: clientFields.name.optional() })
  .refine(oneTaxId, oneTaxIdIssue)
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
    vat_id: z.string().nullable().openapi({ description: 'The same value as `tax_id`.' }),
    peppol_id: z.string().nullable(),
    buyer_reference: z.string().nullable(),
    tax_treatment: TaxTreatment,
    notes: z.string().nullable(),
    locale: z.string().nullable(),
    status: ClientStatus,
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Client');

export const ClientQuery = listQuery.extend({
  status: ClientStatus.optional(),
  q: searchText(200).optional().openapi({ description: 'Name or email contains (case-insensitive).' }),
});

export const ClientPage = pageOf(Client);

export type CreateClientInput = z.infer<typeof CreateClientBody>;
export type UpdateClientInput = z.infer<typeof UpdateClientBody>;
export type ClientFilter = z.infer<typeof ClientQuery>;
