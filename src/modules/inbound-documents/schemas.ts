// §21's inbound document as the API shows it, and the bodies its operations take. `extracted` is what was read from
// the document (or what a person corrected while reviewing it): amounts in minor units of its `currency`, a credit
// note's amounts positive with `kind: "credit_note"`.
import { z } from '@hono/zod-openapi';
import { currencySchema, dateSchema, idSchema, listQuery, longText, pageOf, text, timestampSchema } from '../../lib/schemas';
import { ExtractedSupplier, ExtractedTaxGroup } from '../expenses/received-fields';
import { EXPENSE_CATEGORIES } from '../expenses/schemas';

export const INBOUND_SOURCES = ['upload', 'email', 'network'] as const;
export const INBOUND_STATUSES = ['received', 'processing', 'needs_review', 'accepted', 'rejected', 'failed'] as const;
export const INBOUND_FORMATS = ['cii', 'ubl', 'facturx', 'pdf', 'image'] as const;
// The supplier and the tax groups are the expense's too (expenses/received-fields.ts).
export { ExtractedSupplier, ExtractedTaxGroup, TAX_CATEGORIES } from '../expenses/received-fields';

const amount = z.number().int().min(0);

export const ExtractedLine = z.object({
  description: longText(1000).nullable(),
  quantity: z.number().nullable(),
  unit_amount: z.number().int().nullable(),
  amount: z.number().int().nullable(),
  tax_rate: z.number().min(0).max(100).nullable(),
});

export const Extracted = z
  .object({
    kind: z.enum(['invoice', 'credit_note']),
    supplier: ExtractedSupplier,
    number: text(100).nullable(),
    issue_date: dateSchema.nullable(),
    due_date: dateSchema.nullable(),
    currency: currencySchema.nullable(),
    subtotal: amount.nullable().openapi({ description: 'Net total (BT-109).' }),
    tax: amount.nullable().openapi({ description: 'VAT total (BT-110).' }),
    total: amount.nullable().openapi({ description: 'Gross total (BT-112).' }),
    tax_breakdown: z.array(ExtractedTaxGroup).max(50),
    lines: z.array(ExtractedLine).max(1000),
    buyer_reference: text(200).nullable(),
    purchase_order: text(200).nullable(),
  })
  .openapi('Extracted');

export const RuleIssue = z.object({ rule: z.string(), message: z.string(), path: z.string().nullable() }).openapi('RuleIssue');

export const Validation = z
  .object({ valid: z.boolean(), checked_at: timestampSchema, errors: z.array(RuleIssue), warnings: z.array(RuleIssue) })
  .openapi('InboundValidation');

export const InboundDocument = z
  .object({
    id: idSchema('inboundDocument'),
    source: z.enum(INBOUND_SOURCES),
    status: z.enum(INBOUND_STATUSES),
    received_at: timestampSchema,
    filename: z.string(),
    content_type: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    format: z.enum(INBOUND_FORMATS).nullable(),
    profile: z.string().nullable().openapi({ description: 'BT-24 as read (EN 16931, XRechnung 3.0, Peppol BIS 3.0, …).' }),
    validation: Validation.nullable(),
    extracted: Extracted.nullable(),
    extraction: z.enum(['xml', 'model']).nullable(),
    confidence: z.number().min(0).max(1).nullable().openapi({ description: 'Model extractions only.' }),
    duplicate_of: z.string().nullable(),
    expense_id: z.string().nullable(),
    rejected_reason: z.string().nullable(),
    failure_reason: z.string().nullable(),
    from: z.string().nullable().openapi({ description: 'The email sender.' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .openapi('InboundDocument');

export const InboundDocumentPage = pageOf(InboundDocument);

export const InboundDocumentQuery = listQuery.extend({
  status: z.enum(INBOUND_STATUSES).optional(),
  source: z.enum(INBOUND_SOURCES).optional(),
});

/** `PATCH`: the named fields of `extracted` replace what was read (while `needs_review`). */
export const UpdateInboundDocumentBody = z
  // Strict all the way down: a field that is not one of `extracted`'s is a 422, never dropped unread.
  .strictObject({ extracted: Extracted.partial().extend({ supplier: ExtractedSupplier.partial().strict().optional() }).strict() })
  .openapi('UpdateInboundDocument');

export const AcceptInboundDocumentBody = z
  .strictObject({
    project_id: idSchema('project').nullish(),
    category: z.enum(EXPENSE_CATEGORIES).default('other'),
    billable: z.boolean().default(false),
    description: longText(500).nullish(),
  })
  .openapi('AcceptInboundDocument');

export const RejectInboundDocumentBody = z.strictObject({ reason: text(500).min(1) }).openapi('RejectInboundDocument');

export type ExtractedValue = z.infer<typeof Extracted>;
export type ValidationValue = z.infer<typeof Validation>;
export type RuleIssueValue = z.infer<typeof RuleIssue>;
