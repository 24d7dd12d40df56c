// What an expense booked from a received document (§21) carries over from it: the supplier as the document names
// it and its tax groups. The inbound document's `extracted` uses the same two schemas, so the API describes each
// once.
import { z } from '@hono/zod-openapi';
import { text } from '../../lib/schemas';

export const TAX_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;

export const ExtractedSupplier = z
  .object({
    name: text(300).nullable(),
    vat_id: text(40).nullable(),
    tax_id: text(40).nullable(),
    address: text(500).nullable().openapi({ description: 'One line, as the document writes it.' }),
    iban: text(40).nullable(),
  })
  .openapi('ExtractedSupplier');

const amount = z.number().int().min(0);

export const ExtractedTaxGroup = z
  .object({ category: z.enum(TAX_CATEGORIES), rate: z.number().min(0).max(100), taxable_amount: amount, tax_amount: amount })
  .openapi('ExtractedTaxGroup');

export type SupplierValue = z.infer<typeof ExtractedSupplier>;
export type TaxGroupValue = z.infer<typeof ExtractedTaxGroup>;
