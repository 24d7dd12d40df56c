// Zod schemas that several modules share. They validate requests and, through @hono/zod-openapi,
// describe them in /openapi.json, so a limit written here is the documented limit.
import { z } from '@hono/zod-openapi';
import { ROLES } from '../db/schema';
import { ERROR_CODES } from '../errors';
import { CURRENCY_CODES, isCurrency } from './currencies';
import { type IdKind, ID_PREFIXES, idPattern } from './ids';
import { MAX_MINOR_AMOUNT } from './money';
import { isCalendarDate } from './time';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES as [string, ...string[]]),
      message: z.string(),
      request_id: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .openapi('Error');

export const idSchema = (kind: IdKind) =>
  z.string().regex(idPattern(kind)).openapi({ example: `${ID_PREFIXES[kind]}_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7` });

/** Path parameters `{id}`; a malformed id answers 404 (see validation.ts). */
export const idParams = (kind: IdKind) =>
  z.object({ id: idSchema(kind).openapi({ param: { name: 'id', in: 'path' } }) });

export const currencySchema = z
  .string()
  .refine(isCurrency, { message: 'Unknown currency: use an ISO 4217 code in upper case, such as USD.' })
  .openapi({ description: 'ISO 4217 currency code, upper case.', example: 'USD', enum: CURRENCY_CODES as string[] });

export const countrySchema = z
  .string()
  .regex(/^[A-Z]{2}$/, 'Use an ISO 3166-1 alpha-2 country code in upper case, such as DE.')
  .openapi({ example: 'DE' });

export const dateSchema = z
  .string()
  .refine(isCalendarDate, { message: 'Use a calendar date as YYYY-MM-DD.' })
  .openapi({ format: 'date', example: '2026-11-22' });

export const timestampSchema = z.string().openapi({ format: 'date-time', example: '2026-11-22T08:00:00.000Z' });

/** A money amount: an integer count of the currency's minor unit (cents for USD, yen for JPY). */
export const minorAmount = (description = 'Integer amount in the currency\'s minor unit.') =>
  z.number().int().min(0).max(MAX_MINOR_AMOUNT).openapi({ description, example: 150000 });

export const positiveMinorAmount = (description?: string) => minorAmount(description).min(1);

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email()).openapi({ example: 'ada@example.com' });

export const text = (max: number) => z.string().trim().max(max);

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25).openapi({ description: '1..100, default 25.' }),
  cursor: z.string().max(200).optional().openapi({ description: 'next_cursor of the previous page.' }),
});

export const pageOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({ data: z.array(item), has_more: z.boolean(), next_cursor: z.string().nullable() })
    .openapi(name);

/** Query booleans arrive as text. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A member's role in a workspace (§9). */
export const RoleSchema = z.enum(ROLES).openapi('Role', {
  description: 'Lowest to highest: viewer reads; member also writes records; admin also voids, moves money and manages people and settings; owner also grants owner.',
});
