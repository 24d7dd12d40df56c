import { z } from '@hono/zod-openapi';
import { IssuedApiKey } from '../access/schemas';
import { Address, AddressInput } from '../../lib/address';
import { currencySchema, emailSchema, idSchema, listQuery, longText, pageOf, RoleSchema, text, timestampSchema } from '../../lib/schemas';
import { LOCALE_PATTERN, timeZoneSchema } from './validation';
import { bicSchema, ibanSchema, peppolIdSchema, vatIdSchema } from '../../lib/party-ids';
import { taxRoundingField } from '../documents/schemas';
import { SUPPLY_TYPES } from '../../db/schema/workspaces';
import { toScaledInteger } from '../../lib/money';
import { Accounting } from './accounting';

// §20: a text, or texts by language (`{"fr": "…", "de": "…"}`); a document prints the one in its
// language, else `en`, else the first.
export const LocalizedText = z
  .union([z.string(), z.record(z.string(), z.string())])
  .openapi('LocalizedText', { description: 'A text, or texts by language (`{"fr": "…"}`), printed in the document\'s (else `en`, else the first).' });

const LocalizedTextInput = z
  .union([
    longText(2000),
    z.record(z.string().max(20), longText(2000)).refine((texts) => Object.keys(texts).length >= 1 && Object.keys(texts).length <= 20, '1 to 20 languages.'),
  ])
  .openapi('LocalizedTextInput');

export const Issuer = z
  .object({
    legal_name: z.string().nullable(),
    email: z.string().nullable(),
    address: Address,
    tax_id: z.string().nullable(),
    vat_id: z.string().nullable().openapi({ description: 'BT-31, the seller\'s VAT identifier.' }),
    registration_id: z.string().nullable().openapi({ description: 'BT-30, the trade register number.' }),
    peppol_id: z.string().nullable().openapi({ description: 'Peppol id, `<scheme>:<id>`.' }),
    iban: z.string().nullable().openapi({ description: 'Paid into by credit transfer.' }),
    bic: z.string().nullable(),
    legal_notes: LocalizedText.nullable(),
    small_business: z.boolean(),
  })
  .openapi('Issuer');

export const Reminders = z
  .object({ enabled: z.boolean(), days_after_due: z.array(z.number().int()) })
  .openapi('Reminders');

const EInvoicePdf = z.enum(['facturx', 'plain']);
const NumberAt = z.enum(['create', 'send']);
const SupplyType = z.enum(SUPPLY_TYPES);

export const Workspace = z
  .object({
    id: idSchema('workspace'),
    name: z.string(),
    role: RoleSchema.openapi({ description: 'The caller\'s role here.' }),
    time_zone: z.string().openapi({ description: 'IANA time zone: what "today" and "overdue" mean for this workspace.', example: 'Europe/Berlin' }),
    locale: z.string().openapi({ description: 'The default of clients\' `locale`.', example: 'en-US' }),
    invoice_prefix: z.string().openapi({ example: 'INV-' }),
    credit_note_prefix: z.string().openapi({ description: 'What a credit note\'s number starts with; its own sequence follows.', example: 'CN-' }),
    quote_prefix: z.string().openapi({ description: 'What default quote numbers start with.', example: 'QUO-' }),
    default_currency: z.string().openapi({ description: 'ISO 4217: the currency a new client gets when none is sent.', example: 'USD' }),
    tax_rounding: taxRoundingField('How new invoices round their tax; each invoice keeps the mode it was created with.'),
    issuer: Issuer.openapi({ description: 'Who invoices: printed on every invoice this workspace sends.' }),
    payment_instructions: LocalizedText.nullable(),
    reminders: Reminders,
    payments_allow_partial: z.boolean().openapi({ description: 'Whether the pay button lets the client pay less than the amount due. Default false.' }),
    einvoice_pdf: EInvoicePdf.openapi({ description: 'A sent invoice\'s PDF: `facturx` (default), a Factur-X PDF/A-3b with its CII XML once ready (…/e-invoice/check), or always `plain`.' }),
    number_at: NumberAt.openapi({ description: 'When drafts take their default number: `create` (default) or `send`.' }),
    default_tax_rate: z.number().nullable(),
    supply_type: SupplyType,
    accounting: Accounting.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Workspace');

export const WorkspacePage = pageOf(Workspace);

const IssuerInput = z
  .strictObject({
    legal_name: text(200).nullish(),
    email: emailSchema.nullish(),
    address: AddressInput.nullish(),
    tax_id: text(50).nullish(),
    vat_id: vatIdSchema.nullish(),
    registration_id: text(50).nullish().openapi({ description: 'BT-30: trade register or other legal registration number.' }),
    peppol_id: peppolIdSchema.nullish(),
    iban: ibanSchema.nullish(),
    bic: bicSchema.nullish(),
    legal_notes: LocalizedTextInput.nullish(),
    small_business: z.boolean().optional(),
  })
  .openapi('IssuerInput');

const RemindersInput = z
  .strictObject({
    enabled: z.boolean().optional().openapi({ description: 'Default false.' }),
    days_after_due: z
      .array(z.number().int().min(1).max(90))
      .max(5)
      .refine((days) => new Set(days).size === days.length, 'Each day may appear once.')
      .optional()
      .openapi({ description: 'Days after the due date. Default [3, 10].', uniqueItems: true }),
  })
  .openapi('RemindersInput');

export const workspaceName = text(200).min(1);

export const UpdateWorkspaceBody = z
  .strictObject({
    name: workspaceName.optional(),
    time_zone: timeZoneSchema.optional(),
    locale: z
      .string()
      .regex(LOCALE_PATTERN, 'Use a BCP 47 language tag: a language, then optionally a script and a region, such as en-US, de-DE or zh-Hant-TW.')
      .optional(),
    invoice_prefix: z
      .string()
      .regex(/^[A-Za-z0-9\-_/.#]{1,20}$/, 'Use 1 to 20 letters, digits or - _ / . #')
      .optional(),
    credit_note_prefix: z
      .string()
      .regex(/^[A-Za-z0-9\-_/.#]{1,20}$/, 'Use 1 to 20 letters, digits or - _ / . #')
      .optional()
      .openapi({ description: 'Default `CN-`. New credit notes only; the sequence carries on.' }),
    quote_prefix: z
      .string()
      .regex(/^[A-Za-z0-9\-_/.#]{1,20}$/, 'Use 1 to 20 letters, digits or - _ / . #')
      .optional(),
    default_currency: currencySchema.optional().openapi({ description: 'A new client\'s currency when none is sent. Default USD; one the current rates lack is a 422.' }),
    tax_rounding: taxRoundingField('Default `line`. Copied onto each invoice when it is created; changing it leaves existing invoices as they are.').optional(),
    issuer: IssuerInput.nullable().optional().openapi({ description: 'Replaced whole when sent; null clears it.' }),
    payment_instructions: LocalizedTextInput.nullable().optional(),
    reminders: RemindersInput.optional().openapi({ description: 'Replaced whole when sent: a field left out takes its default.' }),
    payments_allow_partial: z.boolean().optional(),
    einvoice_pdf: EInvoicePdf.optional().openapi({ description: 'Default `facturx` (see `Workspace`).' }),
    number_at: NumberAt.optional(),
    default_tax_rate: z.number().gt(0).max(100).refine((v) => toScaledInteger(v, 3) !== null, 'At most 3 decimals.').nullable().optional(),
    supply_type: SupplyType.optional(),
    accounting: Accounting.nullable().optional().openapi({ description: 'Replaced whole; null clears it.' }),
  })
  .openapi('UpdateWorkspace');

export const CreateWorkspaceBody = z.strictObject({ name: workspaceName }).openapi('CreateWorkspace');

export const Member = z
  .object({
    id: idSchema('membership'),
    user: z.object({ id: idSchema('user'), name: z.string(), email: z.string() }),
    role: RoleSchema,
    created_at: timestampSchema,
  })
  .openapi('Member');

export const MemberPage = pageOf(Member);

export const UpdateMemberBody = z.strictObject({ role: RoleSchema }).openapi('UpdateMember');

export const CreateWorkspaceInvitationBody = z
  .strictObject({
    email: emailSchema,
    role: RoleSchema,
    expires_in_days: z.number().int().min(1).max(30).optional().openapi({ description: 'Default 7.' }),
  })
  .openapi('CreateWorkspaceInvitation');

export const WorkspaceInvitation = z
  .object({
    id: idSchema('invitation'),
    email: z.string(),
    role: RoleSchema,
    expires_at: timestampSchema,
    created_at: timestampSchema,
    email_delivery: z
      .object({
        status: z.enum(['queued', 'sent', 'failed']),
        attempts: z.number().int(),
        last_error: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: 'The email carrying the code, its only copy: retried after 1 min, 10 min, 1 h and 6 h, `failed` after the fifth attempt.' }),
  })
  .openapi('WorkspaceInvitation');

export const WorkspaceInvitationPage = pageOf(WorkspaceInvitation);

export const MemberQuery = listQuery;

export const CreatedWorkspace = z
  .object({ workspace: Workspace, api_key: IssuedApiKey })
  .openapi('CreatedWorkspace');
