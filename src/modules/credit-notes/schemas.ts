// Credit notes (§17): the request that issues one and the record as the API returns it.
import { z } from '@hono/zod-openapi';
import { TAX_CATEGORIES } from '../documents/totals';
import { lineAmount, MAX_MINOR_AMOUNT, threeDecimals, toScaledInteger } from '../../lib/money';
import { localeSchema } from '../../lib/locale';
import { idSchema, longText, minorAmount, oneOf, pageOf, timestampSchema } from '../../lib/schemas';
import { DEFAULT_UNIT } from '../../lib/units';
import { DocumentLine, MAX_LINE_ITEMS, TaxBreakdownEntry, unitSchema } from '../invoices/schemas';

export const CREDIT_NOTE_REASONS = ['duplicate', 'order_change', 'product_unsatisfactory', 'other'] as const;

const quantity = z.number().gt(0).max(1_000_000).refine(threeDecimals, { message: 'At most 3 decimals.' });

/** A line that credits a line of the invoice: its description, unit, price, discount and tax, for `quantity`. */
const CreditInvoiceLine = z.strictObject({
  line_item_id: idSchema('lineItem'),
  quantity: quantity.optional().openapi({ description: 'Default: all of the line not yet credited; at most that (422).' }),
});

/** A line of its own (a discount agreed afterwards, a fee given back). */
const CreditCustomLine = z
  .strictObject({
    description: longText(500).min(1),
    quantity,
    unit: unitSchema.default(DEFAULT_UNIT),
    unit_amount: minorAmount('Price of one unit in minor units of the invoice currency.'),
    tax_category: z.enum(TAX_CATEGORIES).optional().openapi({ description: 'Defaults from the rate.' }),
    tax_rate: z.number().min(0).max(100).refine(threeDecimals, { message: 'At most 3 decimals.' }),
  })
  .refine((line) => lineAmount(toScaledInteger(line.quantity, 3) ?? 0, line.unit_amount) <= MAX_MINOR_AMOUNT, {
    message: `quantity × unit_amount must not exceed ${MAX_MINOR_AMOUNT} minor units.`,
    path: ['unit_amount'],
  });

export const CreateCreditNoteBody = z
  .strictObject({
    lines: z
      .array(oneOf('a line', [CreditInvoiceLine, CreditCustomLine]))
      .min(1)
      .max(MAX_LINE_ITEMS)
      .optional()
      .openapi({ description: 'What is credited: `{line_item_id, quantity?}` for a line of the invoice, or a line of its own. Without `lines`, the whole invoice.' }),
    reason: z.enum(CREDIT_NOTE_REASONS),
    memo: longText(2000).nullish().openapi({ description: 'Printed on the credit note (BT-22 in its e-invoice).' }),
    refund_payment_id: idSchema('payment').optional().openapi({ description: 'The payment the post-payment part is refunded from; default the latest one whose unrefunded rest covers it.' }),
    email: z.boolean().default(true).openapi({ description: 'Email the credit note to the client (default).' }),
    locale: localeSchema.optional(),
  })
  .openapi('CreateCreditNote');

// Not an extension of LineItem (whose id is an invoice line's): the document line with its own id.
export const CreditNoteLine = DocumentLine.extend({
  id: idSchema('creditNoteLine'),
  invoice_line_item_id: z.string().nullable().openapi({ description: 'The invoice line it credits; null for a line of its own.' }),
}).openapi('CreditNoteLine');

export const CreditNote = z
  .object({
    id: idSchema('creditNote'),
    number: z.string().openapi({ description: 'From the workspace\'s own credit-note sequence: `credit_note_prefix` (default `CN-`) and six digits.', example: 'CN-000001' }),
    invoice_id: z.string(),
    client_id: z.string(),
    status: z.enum(['issued']).openapi({ description: 'Credit notes are final: no edit, delete or void.' }),
    reason: z.enum(CREDIT_NOTE_REASONS),
    memo: z.string().nullable(),
    locale: z.string(),
    issue_date: z.string(),
    currency: z.string(),
    line_items: z.array(CreditNoteLine),
    subtotal: z.number().int(),
    discount_total: z.number().int().openapi({ description: 'The invoice\'s discount in proportion, round(subtotal × its discount_total / its subtotal); all of it for the whole invoice.' }),
    tax: z.number().int(),
    total: z.number().int(),
    tax_breakdown: z.array(TaxBreakdownEntry),
    pre_payment_amount: z.number().int().openapi({ description: 'What it took off the amount due (at most what was due).' }),
    post_payment_amount: z.number().int().openapi({ description: 'The rest: money given back, refunded as `refund_id`.' }),
    refund_id: z.string().nullable(),
    hosted_url: z.string().nullable().openapi({ description: 'The page the client opens (no key needed); null in events.' }),
    pdf_url: z.string().nullable(),
    created_at: timestampSchema,
  })
  .openapi('CreditNote');

export const CreditNoteSummary = CreditNote.omit({ line_items: true }).openapi('CreditNoteSummary');
export const CreditNotePage = pageOf(CreditNoteSummary);

export type CreateCreditNoteInput = z.infer<typeof CreateCreditNoteBody>;
