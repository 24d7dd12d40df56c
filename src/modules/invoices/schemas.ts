import { z } from '@hono/zod-openapi';
import { TAX_CATEGORIES, VATEX_PATTERN } from '../documents/totals';
import { lineAmount, MAX_MINOR_AMOUNT, threeDecimals, toScaledInteger } from '../../lib/money';
import { currencySchema, dateSchema, FieldIssue, emailSchema, idSchema, listQuery, longText, minorAmount, moneyNumber, oneOf, pageOf, text, timestampSchema } from '../../lib/schemas';
import { DEFAULT_UNIT, UNIT_CODES } from '../../lib/units';
import { Address } from '../../lib/address';
import { localeSchema } from '../../lib/locale';
import { oneServiceDate, serviceFields, serviceResponseFields, taxRoundingField } from '../documents/schemas';
import { LocalizedText } from '../workspaces/schemas';
import { addDays, todayUtc } from '../../lib/time';

export const InvoiceStatus = z.enum(['draft', 'open', 'paid', 'void']);
export const InvoiceAction = z.enum(['update', 'delete', 'send', 'record_payment', 'void']);
export const MAX_LINE_ITEMS = 100;


const quantity = z
  .number()
  .gt(0)
  .max(1_000_000)
  .refine(threeDecimals, { message: 'At most 3 decimals.' })
  .openapi({ description: 'At most 3 decimals (1.5 hours).', example: 1.5 });

export const taxRate = z
  .number()
  .min(0)
  .max(100)
  .refine(threeDecimals, { message: 'At most 3 decimals.' })
  .openapi({ description: 'Percent, at most 3 decimals (8.25).', example: 8.25 });

const percent = (description: string) =>
  z.number().min(0).max(100).refine(threeDecimals, { message: 'At most 3 decimals.' }).openapi({ description, example: 10 });

export const TaxCategory = z.enum(TAX_CATEGORIES).openapi('TaxCategory', {
  description: 'EN 16931 VAT category: `S` standard, `Z` zero-rated, `E` exempt, `AE` reverse charge, `K` intra-community, `G` export, `O` not subject to VAT; all but `S` at rate 0 (422). With no tax named: `E` for a small business, the client\'s `tax_treatment` once `default_tax_rate` is set, else 0 (`O` if the issuer has no `vat_id` and no line a rate, else `Z`). Exempt ones carry `tax_exemption_reason`/`_code`, by default "Reverse charge", "Intra-community supply", "Export outside the EU", "Not subject to VAT"; `E` needs one. `O` stands alone.',
});

// Request bodies are inlined in the document, so what they repeat is kept short: the long texts live
// on the response components (TaxCategory, LineItem) and the operations' descriptions.
export const unitSchema = z.enum(UNIT_CODES).openapi({ description: `Default \`${DEFAULT_UNIT}\` (one).`, example: 'HUR' });
const taxCategoryInput = z.enum(TAX_CATEGORIES);

export const LineItemInput = z
  .strictObject({
    description: longText(500).min(1),
    quantity,
    unit: unitSchema.default(DEFAULT_UNIT),
    unit_amount: minorAmount('Net price of one unit, in minor units (no negative lines).'),
    discount_percent: percent('Percent, at most 3 decimals. Defaults to 0.').default(0),
    tax_category: taxCategoryInput.optional(),
    tax_rate: taxRate.optional().openapi({ description: 'Percent, at most 3 decimals. Defaults to 0.' }),
  })
  .refine((line) => lineAmount(toScaledInteger(line.quantity, 3) ?? 0, line.unit_amount) <= MAX_MINOR_AMOUNT, {
    message: `quantity × unit_amount must not exceed ${MAX_MINOR_AMOUNT} minor units.`,
    path: ['unit_amount'],
  })
  .openapi('LineItemInput');

const lineItems = z.array(LineItemInput).min(1).max(MAX_LINE_ITEMS);

const discountReason = text(200).nullish().openapi({ example: 'Loyalty discount' });

export const DiscountInput = oneOf('a discount', [
  z.strictObject({ percent: percent('Percent of the subtotal (see **Money**).'), reason: discountReason }),
  z.strictObject({ amount: minorAmount('A fixed amount in minor units; at most the subtotal (422 otherwise).'), reason: discountReason }),
])
  .openapi('DiscountInput', {
    description: 'A discount before tax on the whole document, `{percent}` or `{amount}`, with an optional `reason`; null for none.',
  });

/** A discount as stored and returned: both keys present, the one not given null. */
export const discountRecord = (d: DiscountInputValue) => ({
  percent: 'percent' in d ? d.percent : null,
  amount: 'amount' in d ? d.amount : null,
  reason: d.reason ?? null,
});

export const Discount = z
  .object({ percent: z.number().nullable(), amount: z.number().int().nullable(), reason: z.string().nullable() })
  .openapi('Discount', { description: 'The document discount as given (`percent` or `amount`); what it took off is `discount_total`.' });

export const TaxBreakdownEntry = z
  .object({
    category: TaxCategory,
    rate: z.number().openapi({ description: 'Percent; 0 for every category but S.' }),
    taxable_amount: z.number().int().openapi({ description: 'Σ line amount − the group\'s discount share.' }),
    tax_amount: z.number().int(),
    discount_amount: z.number().int().openapi({ description: 'The group\'s discount share.' }),
    exemption_reason: z.string().nullable().openapi({ description: 'BT-120: the invoice\'s `tax_exemption_reason` (its E group\'s if it has one), else the default; null for S, Z.' }),
    exemption_code: z.string().nullable().openapi({ description: 'BT-121: the invoice\'s `tax_exemption_code`, as the reason.' }),
  })
  .openapi('TaxBreakdownEntry');

const exemptionFields = {
  tax_exemption_reason: text(300).nullish().openapi({ description: 'BT-120, why E, AE, K, G or O lines bear no tax.' }),
  tax_exemption_code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(VATEX_PATTERN, 'A VATEX code such as VATEX-EU-AE or VATEX-EU-132-1C.')
    .nullish()
    .openapi({ description: 'BT-121, a VATEX code.' }),
};

/** The §15 fields an invoice and a recurring template share beside their lines. */
export const documentFields = {
  discount: DiscountInput.nullish(),
  ...exemptionFields,
  buyer_reference: text(100).nullish().openapi({ description: 'BT-10 (a Leitweg-ID); default the client\'s.' }),
  purchase_order: text(100).nullish().openapi({ description: 'BT-13, purchase order number.' }),
};

// Its own pattern: no controls, no spaces (text()'s pattern would hide it in the document).
const invoiceNumber = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[\w./#-]+$/, 'Letters, digits and . / # - _ only.')
  .openapi({
    description: 'Unique per workspace. Default: the next `invoice_prefix` + six digits, past the highest in use of that form (prefix + 1–12 digits), drawn at send with `number_at: "send"`.',
    example: 'INV-000042',
  });

/** A document's number as shown (§20): null until a draft numbered at send is sent. */
export const numberField = z.string().nullable().openapi({ description: 'Null until sent (`number_at`).' });

/** A draft's own language (§20); null or absent: its client's, else the workspace's, as of sending. */
export const documentLocale = localeSchema.nullish();

/** The language a document reads in (§20), as the API shows it; what it means is said once, on the Clients tag. */
export const DocumentLocale = z.string().nullable();

const datesOrdered = (v: { issue_date?: string; due_date?: string }) => !v.issue_date || !v.due_date || v.due_date >= v.issue_date;
const datesIssue = { message: 'due_date must not be before issue_date.', path: ['due_date'] };

export const CreateInvoiceBody = z
  .strictObject({
    client_id: idSchema('client'),
    project_id: idSchema('project').nullish(),
    currency: currencySchema.optional().openapi({ description: 'Defaults to the client\'s currency.' }),
    issue_date: dateSchema.optional().openapi({ description: 'Defaults to today (UTC).' }),
    due_date: dateSchema.optional().openapi({ description: 'Defaults to issue_date + 30 days (a 422 on issue_date if that is past 2199-12-31); never before issue_date.' }),
    number: invoiceNumber.optional(),
    notes: longText(5000).nullish(),
    locale: documentLocale,
    line_items: lineItems,
    ...documentFields,
    ...serviceFields,
  })
  .refine(datesOrdered, datesIssue)
  .refine(...oneServiceDate)
  .openapi('CreateInvoice');

export const UpdateInvoiceBody = z
  .strictObject({
    client_id: idSchema('client').optional(),
    project_id: idSchema('project').nullish(),
    currency: currencySchema.optional(),
    issue_date: dateSchema.optional(),
    due_date: dateSchema.optional(),
    number: invoiceNumber.optional(),
    notes: longText(5000).nullish(),
    locale: documentLocale,
    line_items: lineItems.optional(),
    ...documentFields,
    ...serviceFields,
  })
  .refine(datesOrdered, datesIssue)
  .refine(...oneServiceDate)
  .openapi('UpdateInvoice');

export const PaymentBody = z
  .strictObject({
    amount: moneyNumber()
      .min(1)
      .max(MAX_MINOR_AMOUNT)
      .openapi({ description: 'Amount received, in minor units of the invoice currency; at most amount_due (422).', example: 150000 }),
    paid_on: dateSchema
      .refine((d) => d <= addDays(todayUtc(), 1), 'A payment cannot be dated later than tomorrow (UTC).')
      .optional()
      .openapi({ description: 'Defaults to today in the workspace\'s time zone; not later than tomorrow (UTC).' }),
    method: text(50).nullish().openapi({ example: 'bank_transfer' }),
    reference: text(200).nullish(),
  })
  .openapi('RecordPayment');

// A payment as the API shows it is payments/schemas.ts's Payment (manual and online alike).

// A line's amounts as every document shows them: a recurring invoice's lines are these, and an
// invoice's, quote's and credit note's add their id (written once in /openapi.json, the others refer to it).
export const DocumentLine = z
  .object({
    description: z.string(),
    quantity: z.number(),
    unit: z.string().openapi({ description: 'See `UnitCode`.', example: 'HUR' }),
    unit_amount: z.number().int(),
    gross: z.number().int(),
    discount_percent: z.number(),
    discount_amount: z.number().int(),
    amount: z.number().int().openapi({ description: 'The line\'s net.' }),
    tax_category: TaxCategory,
    tax_rate: z.number(),
    tax: z.number().int().nullable().openapi({ description: 'Null when the document\'s `tax_rounding` is `group`.' }),
  })
  .openapi('DocumentLine');

export const LineItem = DocumentLine.extend({ id: idSchema('lineItem') }).openapi('LineItem');

// The parties' address as it was when the document was sent: the shape a client's address has.
const SnapshotAddress = Address;

// The §15 parties' fields are optional here: invoices sent before they existed have snapshots without them.
export const IssuerSnapshot = z
  .object({
    name: z.string(), legal_name: z.string().nullable(), email: z.string().nullable(), address: SnapshotAddress, tax_id: z.string().nullable(),
    vat_id: z.string().nullable().optional(), registration_id: z.string().nullable().optional(), peppol_id: z.string().nullable().optional(),
    iban: z.string().nullable().optional(), bic: z.string().nullable().optional(), legal_notes: LocalizedText.nullable().optional(),
    small_business: z.boolean().optional(),
  })
  .openapi('InvoiceIssuer', { description: 'Who bills, as the workspace was when the invoice or quote was sent; null on a draft.' });

export const BillToSnapshot = z
  .object({
    name: z.string(), email: z.string().nullable(), company: z.string().nullable(), address: SnapshotAddress, tax_id: z.string().nullable(),
    vat_id: z.string().nullable().optional(), peppol_id: z.string().nullable().optional(), buyer_reference: z.string().nullable().optional(),
  })
  .openapi('InvoiceBillTo', { description: 'Who pays, as the client was when the invoice or quote was sent; null on a draft.' });

export const SendInvoiceBody = z
  .strictObject({
    to: z.array(emailSchema).min(1).max(10).optional().openapi({ description: 'Who gets the email instead of the client\'s email address.' }),
    cc: z.array(emailSchema).max(10).optional().openapi({ description: 'Copies.' }),
    message: longText(2000).optional().openapi({ description: 'A note from you, printed in the email.' }),
    email: z.boolean().default(true).openapi({ description: 'Send the email (default). With false, or with no recipient, it is only finalized.' }),
  })
  .openapi('SendInvoice');

export const EmailDelivery = z
  .object({
    id: idSchema('emailDelivery'),
    kind: z.enum(['invoice', 'reminder', 'receipt', 'credit_note']),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    status: z.enum(['queued', 'sent', 'failed']),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    sent_at: timestampSchema.nullable(),
    created_at: timestampSchema,
  })
  .openapi('EmailDelivery');

export const EmailDeliveryPage = pageOf(EmailDelivery);

export const Invoice = z
  .object({
    id: idSchema('invoice'),
    number: numberField,
    status: InvoiceStatus,
    overdue: z.boolean().openapi({ description: 'Open and past due_date (UTC); derived, never stored.' }),
    client_id: z.string(),
    project_id: z.string().nullable(),
    currency: z.string(),
    issue_date: z.string(),
    due_date: z.string(),
    line_items: z.array(LineItem),
    subtotal: z.number().int(),
    discount: Discount.nullable(),
    discount_total: z.number().int().openapi({ description: 'What the document discount takes off.' }),
    tax: z.number().int(),
    total: z.number().int(),
    tax_rounding: taxRoundingField('The workspace\'s `tax_rounding` when the invoice was created; never changes on it.'),
    tax_breakdown: z.array(TaxBreakdownEntry).openapi({ description: 'One per tax group (category, rate), in order of first line; Σ taxable_amount = subtotal − discount_total, Σ tax_amount = tax.' }),
    tax_exemption_reason: z.string().nullable(),
    tax_exemption_code: z.string().nullable(),
    buyer_reference: z.string().nullable(),
    purchase_order: z.string().nullable(),
    ...serviceResponseFields,
    amount_paid: z.number().int(),
    amount_due: z.number().int().openapi({ description: 'total − credited_amount − amount_paid, never below 0.' }),
    credited_amount: z.number().int().openapi({ description: 'Σ total of its credit notes.' }),
    credit_note_ids: z.array(z.string()).openapi({ description: 'Its credit notes, oldest first.' }),
    overpaid_amount: z.number().int().openapi({ description: 'Money received beyond the total (two paid checkouts), to be refunded; `amount_paid + overpaid_amount` is payments minus refunds.' }),
    notes: z.string().nullable(),
    locale: DocumentLocale,
    available_actions: z.array(InvoiceAction).openapi({ description: 'Exactly the operations the invoice\'s state allows now.' }),
    issuer: IssuerSnapshot.nullable(),
    bill_to: BillToSnapshot.nullable(),
    recurring_invoice_id: z.string().nullable().openapi({ description: 'The recurring invoice that issued it.' }),
    quote_id: z.string().nullable().openapi({ description: 'The quote it was converted from.' }),
    hosted_url: z.string().nullable().openapi({ description: 'The client\'s page (no key needed), the same until …/share-link makes a new one; null on a draft.' }),
    pdf_url: z.string().nullable().openapi({ description: '`hosted_url` + `/pdf`. Null on a draft.' }),
    sent_at: timestampSchema.nullable(),
    viewed_at: timestampSchema.nullable().openapi({ description: 'When the client first opened the hosted page in a browser.' }),
    paid_at: timestampSchema.nullable(),
    voided_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Invoice');

export const InvoiceSummary = Invoice.omit({ line_items: true }).openapi('InvoiceSummary');

export const InvoiceQuery = listQuery.extend({
  status: z.enum(['draft', 'open', 'paid', 'void', 'overdue']).optional().openapi({ description: '`overdue`: open and past due.' }),
  client_id: idSchema('client').optional(),
  project_id: idSchema('project').optional(),
  issued_from: dateSchema.optional().openapi({ description: 'issue_date on or after.' }),
  issued_to: dateSchema.optional().openapi({ description: 'issue_date on or before.' }),
  recurring_invoice_id: idSchema('recurringInvoice').optional().openapi({ description: 'Invoices this recurring invoice issued.' }),
});

export const InvoicePage = pageOf(InvoiceSummary);

export type CreateInvoiceInput = z.infer<typeof CreateInvoiceBody>;
export type UpdateInvoiceInput = z.infer<typeof UpdateInvoiceBody>;
export type LineItemInputValue = z.input<typeof LineItemInput>;
export type DiscountInputValue = z.infer<typeof DiscountInput>;
export type PaymentInput = z.infer<typeof PaymentBody>;
export type SendInvoiceInput = z.infer<typeof SendInvoiceBody>;
export type InvoiceFilter = z.infer<typeof InvoiceQuery>;

export const EINVOICE_FORMATS_TEXT = '`cii` (default): CII D16B, EN 16931 (what Factur-X embeds); `ubl`: UBL 2.1, Peppol BIS 3.0, which also needs both parties\' `peppol_id` and a `buyer_reference` or `purchase_order`.';

export const EInvoiceQuery = z.object({
  format: z.enum(['cii', 'ubl']).default('cii'),
});

export const EInvoiceCheck = z
  .object({
    format: z.enum(['cii', 'ubl']),
    ready: z.boolean().openapi({ description: 'True when the e-invoice can be produced (no problems).' }),
    problems: z.array(FieldIssue),
    warnings: z.array(FieldIssue).openapi({ description: 'Lines off the client\'s `tax_treatment`.' }),
  })
  .openapi('EInvoiceCheck');
