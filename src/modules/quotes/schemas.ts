import { oneServiceDate, serviceFields, serviceResponseFields } from '../documents/schemas';
// Quotes (§18): requests and answers. Lines, discount and exemption are the invoice's (§15).
import { z } from '@hono/zod-openapi';
import { currencySchema, dateSchema, idSchema, listQuery, longText, pageOf, text, timestampSchema } from '../../lib/schemas';
import {
  BillToSnapshot, Discount, documentFields, documentLocale, DocumentLocale, IssuerSnapshot, LineItem, LineItemInput, MAX_LINE_ITEMS, numberField, TaxBreakdownEntry,
} from '../invoices/schemas';
import { taxRoundingField } from '../documents/schemas';

export const QUOTE_STATUSES = ['draft', 'open', 'accepted', 'declined', 'expired', 'canceled', 'converted'] as const;
export const QuoteStatus = z.enum(QUOTE_STATUSES);
export const QuoteAction = z.enum(['update', 'delete', 'send', 'accept', 'decline', 'cancel', 'revise', 'convert']);
export const ON_ACCEPT = ['none', 'draft_invoice', 'send_invoice'] as const;
// Not registered by name: zod-openapi would write the create's default (`none`) into the component.
// /openapi.json writes the enumeration once all the same (openapi/shared-components.ts).
export const ON_ACCEPT_TEXT = 'What accepting does: `none` (default) waits for …/convert; `draft_invoice` converts at once; `send_invoice` converts and sends the invoice.';
export const OnAccept = z.enum(ON_ACCEPT).openapi({ description: ON_ACCEPT_TEXT });
/** How an acceptance reached you; `online` is the client's own, on the quote's page. */
export const ACCEPT_METHODS = ['email', 'phone', 'in_person', 'other'] as const;
export const VALID_DAYS = 30;

const lineItems = z.array(LineItemInput).min(1).max(MAX_LINE_ITEMS);

const quoteNumber = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[\w./#-]+$/, 'Letters, digits and . / # - _ only.')
  .openapi({ description: 'Unique per workspace. Default: the next `quote_prefix` + six digits (at send with `number_at: "send"`).', example: 'QUO-000042' });

const datesOrdered = (v: { issue_date?: string; valid_until?: string }) => !v.issue_date || !v.valid_until || v.valid_until >= v.issue_date;
const datesIssue = { message: 'valid_until must not be before issue_date.', path: ['valid_until'] };

const quoteDocumentFields = {
  discount: documentFields.discount,
  tax_exemption_reason: documentFields.tax_exemption_reason,
  tax_exemption_code: documentFields.tax_exemption_code,
};

export const CreateQuoteBody = z
  .strictObject({
    client_id: idSchema('client'),
    project_id: idSchema('project').nullish(),
    currency: currencySchema.optional().openapi({ description: 'Defaults to the client\'s currency.' }),
    issue_date: dateSchema.optional().openapi({ description: 'Defaults to today in the workspace\'s time zone.' }),
    valid_until: dateSchema.optional().openapi({ description: `Defaults to issue_date + ${VALID_DAYS} days; any date from issue_date on.` }),
    number: quoteNumber.optional(),
    notes: longText(5000).nullish(),
    terms: longText(5000).nullish(),
    locale: documentLocale,
    on_accept: OnAccept.default('none'),
    line_items: lineItems,
    ...quoteDocumentFields,
    ...serviceFields,
  })
  .refine(datesOrdered, datesIssue)
  .refine(...oneServiceDate)
  .openapi('CreateQuote');

export const UpdateQuoteBody = z
  .strictObject({
    client_id: idSchema('client').optional(),
    project_id: idSchema('project').nullish(),
    currency: currencySchema.optional(),
    issue_date: dateSchema.optional(),
    valid_until: dateSchema.optional(),
    number: quoteNumber.optional(),
    notes: longText(5000).nullish(),
    terms: longText(5000).nullish(),
    locale: documentLocale,
    on_accept: OnAccept.optional(),
    line_items: lineItems.optional(),
    ...quoteDocumentFields,
    ...serviceFields,
  })
  .refine(datesOrdered, datesIssue)
  .refine(...oneServiceDate)
  .openapi('UpdateQuote');

export const AcceptQuoteBody = z
  .strictObject({
    name: text(200).min(1).openapi({ description: 'Who accepted, as they signed.', example: 'Ada Lovelace' }),
    po_number: text(100).nullish().openapi({ description: 'The client\'s purchase order number; the converted invoice quotes it.', example: 'PO-7781' }),
    method: z.enum(ACCEPT_METHODS).openapi({ description: 'How the acceptance reached you.' }),
  })
  .openapi('AcceptQuote');

export const DeclineQuoteBody = z
  .strictObject({ reason: longText(1000).min(1).openapi({ example: 'Over our budget this quarter.' }) })
  .openapi('DeclineQuote');

export const Quote = z
  .object({
    id: idSchema('quote'),
    number: numberField,
    status: QuoteStatus,
    client_id: z.string(),
    project_id: z.string().nullable(),
    currency: z.string(),
    issue_date: z.string(),
    valid_until: z.string(),
    line_items: z.array(LineItem),
    subtotal: z.number().int(),
    discount: Discount.nullable(),
    discount_total: z.number().int(),
    tax: z.number().int(),
    total: z.number().int(),
    tax_rounding: taxRoundingField('The workspace\'s `tax_rounding` when the quote was created.'),
    tax_breakdown: z.array(TaxBreakdownEntry),
    tax_exemption_reason: z.string().nullable(),
    tax_exemption_code: z.string().nullable(),
    notes: z.string().nullable(),
    ...serviceResponseFields,
    terms: z.string().nullable(),
    locale: DocumentLocale,
    on_accept: OnAccept,
    issuer: IssuerSnapshot.nullable(),
    bill_to: BillToSnapshot.nullable(),
    hosted_url: z.string().nullable().openapi({ description: 'The page where the client accepts or declines (no key needed); null on a draft.' }),
    pdf_url: z.string().nullable(),
    accepted: z
      .object({ name: z.string(), po_number: z.string().nullable(), method: z.enum([...ACCEPT_METHODS, 'online']), at: timestampSchema })
      .nullable()
      .openapi({ description: 'Who accepted, with which purchase order, how (`online`: on the quote\'s page) and when.' }),
    declined: z.object({ reason: z.string(), at: timestampSchema }).nullable(),
    invoice_id: z.string().nullable().openapi({ description: 'The invoice it was converted into.' }),
    revision_of: z.string().nullable().openapi({ description: 'The quote this one revises.' }),
    available_actions: z.array(QuoteAction).openapi({ description: 'Exactly the operations the quote\'s state allows now.' }),
    sent_at: timestampSchema.nullable(),
    viewed_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('Quote');

export const QuoteSummary = Quote.omit({ line_items: true }).openapi('QuoteSummary');

export const QuoteQuery = listQuery.extend({
  status: QuoteStatus.optional(),
  client_id: idSchema('client').optional(),
});

export const QuotePage = pageOf(QuoteSummary);

export type CreateQuoteInput = z.infer<typeof CreateQuoteBody>;
export type UpdateQuoteInput = z.infer<typeof UpdateQuoteBody>;
export type AcceptQuoteInput = z.infer<typeof AcceptQuoteBody>;
export type QuoteFilter = z.infer<typeof QuoteQuery>;
