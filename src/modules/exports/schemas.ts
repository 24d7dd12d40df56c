import { z } from '@hono/zod-openapi';
import { dateSchema, idSchema, timestampSchema } from '../../lib/schemas';

export const DatevQuery = z.object({ from: dateSchema, to: dateSchema });

export const EXPORT_KINDS = ['invoices', 'credit_notes', 'expenses', 'payments', 'time'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const CreateExportBody = z
  .strictObject({
    from: dateSchema,
    to: dateSchema,
    kinds: z
      .array(z.enum(EXPORT_KINDS))
      .min(1)
      .max(EXPORT_KINDS.length)
      .refine((kinds) => new Set(kinds).size === kinds.length, 'Each kind may appear once.')
      .optional()
      .openapi({ description: 'Default: all.', uniqueItems: true }),
  })
  .openapi('CreateExport');

export const EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;

export const Export = z
  .object({
    id: idSchema('export'),
    status: z.enum(EXPORT_STATUSES),
    from: z.string(),
    to: z.string(),
    kinds: z.array(z.enum(EXPORT_KINDS)),
    size: z.number().int().nullable(),
    download_url: z.string().nullable().openapi({ description: 'Valid 24 h from completed_at; then `expired`, the file removed.' }),
    expires_at: timestampSchema.nullable(),
    failure_reason: z.string().nullable(),
    created_at: timestampSchema,
    completed_at: timestampSchema.nullable(),
  })
  .openapi('Export');
