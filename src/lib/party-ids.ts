// The identifiers of the parties on a document (§15): VAT ids, Peppol participant ids, IBAN and BIC,
// as request fields. Each is normalized (trimmed, upper case, spaces dropped where the format has none)
// before it is checked, so "de 123 456 789" is stored as DE123456789.
import { z } from '@hono/zod-openapi';
import { isValidIban, normalizeIban } from './iban';

/** A VAT id as stored and compared: upper case, without the spaces, dots and dashes it may be typed with. */
export const compactVatId = (v: string) => v.replace(/[\s.-]/g, '').toUpperCase();

/** Two letters (the country prefix, EL for Greece) and 2–13 letters or digits. */
export const VAT_ID_PATTERN = /^[A-Z]{2}[A-Z0-9]{2,13}$/;

// As typed: the same, with a space, dot or dash allowed between characters.
const VAT_ID_TYPED = /^[A-Za-z]{2}(?:[ .-]?[A-Za-z0-9]){2,13}$/;

export const vatIdSchema = z
  .string()
  .trim()
  .regex(VAT_ID_TYPED, 'A VAT id is two letters and 2 to 13 letters or digits, such as DE123456789.')
  .transform(compactVatId)
  .openapi({ description: 'VAT identifier: two letters and 2–13 letters or digits (spaces, dots and dashes are dropped).', example: 'DE123456789' });

/** "<4-digit scheme>:<id>", e.g. 0088:5790000435975 (GLN) or 9930:DE123456789. */
export const peppolIdSchema = z
  .string()
  .trim()
  .regex(/^\d{4}:[A-Za-z0-9][A-Za-z0-9._\-/+]{0,49}$/, 'A Peppol id is a 4-digit scheme, a colon and the id, such as 0088:5790000435975.')
  .openapi({ description: 'Peppol participant id, `<4-digit ISO 6523 scheme>:<id>`.', example: '0088:5790000435975' });

export const ibanSchema = z
  .string()
  .max(42)
  .refine(isValidIban, 'Not a valid IBAN (checksum or length).')
  .transform(normalizeIban)
  .openapi({ description: 'IBAN, checked for its country\'s length and its checksum; stored without spaces.', example: 'DE89370400440532013000' });

export const bicSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{6}[A-Za-z0-9]{2}(?:[A-Za-z0-9]{3})?$/, 'A BIC is 8 or 11 letters and digits, such as COBADEFFXXX.')
  .transform((bic) => bic.toUpperCase())
  .openapi({ description: 'BIC (SWIFT code), 8 or 11 characters.', example: 'COBADEFFXXX' });
