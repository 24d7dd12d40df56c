// An inbound document's row as the API shows it (schemas.ts, InboundDocument). `extracted` and `validation`
// are JSON text in the row; the file's storage key never leaves the server.
import type { inboundDocuments } from '../../db/schema';
import type { ExtractedValue, ValidationValue } from './schemas';

export type InboundDocumentRow = typeof inboundDocuments.$inferSelect;

const parsed = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T));

export const serializeInboundDocument = (row: InboundDocumentRow) => ({
  id: row.id,
  source: row.source,
  status: row.status,
  received_at: row.receivedAt,
  filename: row.filename,
  content_type: row.contentType,
  size: row.size,
  sha256: row.sha256,
  format: row.format,
  profile: row.profile,
  validation: parsed<ValidationValue>(row.validation),
  extracted: parsed<ExtractedValue>(row.extracted),
  extraction: row.extraction,
  confidence: row.confidence,
  duplicate_of: row.duplicateOf,
  expense_id: row.expenseId,
  rejected_reason: row.rejectedReason,
  failure_reason: row.failureReason,
  from: row.fromAddress,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export type InboundDocumentObject = ReturnType<typeof serializeInboundDocument>;
