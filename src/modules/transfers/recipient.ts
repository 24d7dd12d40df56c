// Who receives a transfer: a name, a country, and either an IBAN (checked by its mod-97 checksum
// and its country's length) or a local account number with a bank code.
import { z } from '@hono/zod-openapi';
import { isValidIban, normalizeIban } from '../../lib/iban';
import { countrySchema, oneOf, text } from '../../lib/schemas';

const IbanAccount = z
  .strictObject({
    iban: z.string().max(42).refine(isValidIban, 'Not a valid IBAN (checksum or length).').transform(normalizeIban),
  })
  .openapi('IbanAccount');

const LocalAccount = z
  .strictObject({
    account_number: z.string().trim().regex(/^[A-Za-z0-9-]{4,34}$/, '4 to 34 letters, digits or dashes.'),
    bank_code: z.string().trim().regex(/^[A-Za-z0-9-]{3,15}$/, '3 to 15 letters, digits or dashes (sort code, routing number, SWIFT/BIC…).'),
  })
  .openapi('LocalAccount');

export const Recipient = z
  .strictObject({
    name: text(140).min(1),
    country: countrySchema,
    account: oneOf('an account', [IbanAccount, LocalAccount]),
  })
  .openapi('Recipient');

export type RecipientValue = z.infer<typeof Recipient>;
