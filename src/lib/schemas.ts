// Zod schemas that several modules share. They validate requests and, through @hono/zod-openapi,
// describe them in /openapi.json, so a limit written here is the documented limit.
import { z } from '@hono/zod-openapi';
import { ROLES } from '../db/schema';
import { ERROR_CODES } from '../errors';
import { COUNTRY_CODES } from './countries';
import { CURRENCY_CODES, isCurrency } from './currencies';
import { type IdKind, ID_PREFIXES, idPattern } from './ids';
import { MAX_MINOR_AMOUNT } from './money';
import { isCalendarDate } from './time';

/** A field and what is wrong with it: an error's `details`, an e-invoice check's `problems` and `warnings`. */
export const FieldIssue = z.object({ path: z.string(), message: z.string() }).openapi('FieldIssue');

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES as [string, ...string[]]),
      message: z.string(),
      request_id: z.string(),
      details: z.array(FieldIssue).optional(),
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
  .enum(COUNTRY_CODES, { message: 'Use an assigned ISO 3166-1 alpha-2 country code in upper case, such as DE.' })
  .openapi({ example: 'DE', description: 'An assigned ISO 3166-1 alpha-2 code, upper case (not XX or another user-assigned one).' });

/** Calendar dates the API accepts: any one a business could mean, and none a bug could. */
export const EARLIEST_DATE = '1970-01-01';
export const LATEST_DATE = '2199-12-31';
export const DATE_RANGE_TEXT = `${EARLIEST_DATE} .. ${LATEST_DATE}.`;

export const dateSchema = z
  .string()
  .refine(isCalendarDate, { message: 'Use a calendar date as YYYY-MM-DD.' })
  .refine((d) => d >= EARLIEST_DATE && d <= LATEST_DATE, { message: `Use a date from ${EARLIEST_DATE} to ${LATEST_DATE}.` })
  .openapi({ format: 'date', example: '2026-11-22', description: DATE_RANGE_TEXT });

export const timestampSchema = z.string().openapi({ format: 'date-time', example: '2026-11-22T08:00:00.000Z' });

/** What a money field says when it gets a decimal, a string or anything but a whole number. */
export const MONEY_HINT = 'Amounts are integers in minor units: send 1250 for 12.50 (and 1200 for ¥1,200, which has no minor unit).';

/** A whole number of minor units, refused with MONEY_HINT otherwise. */
export const moneyNumber = () => z.number({ error: MONEY_HINT }).int(MONEY_HINT);

/** A money amount: an integer count of the currency's minor unit (cents for USD, yen for JPY). */
export const minorAmount = (description = 'Integer amount in the currency\'s minor unit.') =>
  moneyNumber().min(0).max(MAX_MINOR_AMOUNT).openapi({ description, example: 150000 });

export const positiveMinorAmount = (description?: string) => minorAmount(description).min(1);

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email()).openapi({ format: 'email', example: 'ada@example.com' });

// Control characters (C0, DEL, C1) and the bidirectional overrides that can make text read
// differently from what it is (U+202A–U+202E, U+2066–U+2069) are refused in every text field;
// the long texts may hold tab and newline.
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/;
const MULTI_LINE = /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/;
const NO_CONTROLS = 'Control characters and bidirectional overrides are not allowed.';

/** A one-line text of at most `max` characters, trimmed. */
export const text = (max: number) => z.string().trim().max(max).regex(ONE_LINE, NO_CONTROLS);

/** What a search filter (`q`) takes: any text, since it is only ever matched against, never stored. */
export const searchText = (max: number) => z.string().trim().max(max);

/** A long text (notes, descriptions, messages) that may hold tab and newline. */
export const longText = (max: number) => z.string().trim().max(max).regex(MULTI_LINE, 'Control characters other than tab and newline, and bidirectional overrides, are not allowed.');

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional().openapi({ description: 'next_cursor of the previous page.' }),
});

// What every page says besides its records, one schema each list's answer extends with its records
// (`Page & {data: Client[]}` in generated clients), written where the list answers rather than
// named once more for each of some twenty lists.
const Page = z.object({ has_more: z.boolean(), next_cursor: z.string().nullable() }).openapi('Page');

export const pageOf = <T extends z.ZodType>(item: T) => Page.extend({ data: z.array(item) });

/** Query booleans arrive as text. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A member's role in a workspace (§9). */
export const RoleSchema = z.enum(ROLES).openapi('Role', {
  description: 'Lowest to highest, as the introduction says.',
});

/**
 * How a 422 names an object shape a field takes (§3): its required keys, a literal with its value, as
 * `{iban}`, `{account_number, bank_code}` or `{provider: "sandbox"}`. Keys with a default or that may
 * be left out are not named: they never decide which shape a value is.
 */
export function shapeName(option: z.ZodType): string {
  const shape = option instanceof z.ZodObject ? (option.shape as Record<string, z.ZodType>) : undefined;
  if (!shape) return option.description ?? 'a value of another kind';
  const keys = Object.entries(shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key, field]) => (field instanceof z.ZodLiteral ? `${key}: ${JSON.stringify(field.value)}` : key));
  return `{${keys.join(', ')}}`;
}

/** The 422 message of a value that fits none of `options`: "an account is {iban} or {account_number, bank_code}". */
export const shapesMessage = (noun: string, options: readonly z.ZodType[]) => `${noun} is ${options.map(shapeName).join(' or ')}.`;

/** A field that takes one of several object shapes; a value that fits none is a 422 naming them all (§3), never "Invalid input". */
export const oneOf = <const T extends readonly [z.core.SomeType, ...z.core.SomeType[]]>(noun: string, options: T) =>
  z.union(options, { error: shapesMessage(noun, options as unknown as z.ZodType[]) });

/** The same for shapes told apart by a literal `key` (`provider`), naming each with its value. */
export const oneOfBy = <const T extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(key: string, noun: string, options: T) =>
  z.discriminatedUnion(key, options, { error: shapesMessage(noun, options as unknown as z.ZodType[]) });
