// Request and response fields of the document model that several rooms show: the workspace's default
// tax rounding and each invoice, quote and recurring invoice's own.
import { z } from '@hono/zod-openapi';
import { TAX_ROUNDING_MODES } from './totals';

/** The rounding mode with a description of its own use; /openapi.json says what the modes do once, on `TaxRounding` (openapi/shared-components.ts). */
export const taxRoundingField = (use: string) => z.enum(TAX_ROUNDING_MODES).openapi({ description: use });
