import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { users, workspaceColumn } from './workspaces';

// §21: a document received from outside (an upload, an email attachment, a delivery from another workspace on this
// service), kept as its original file in object storage (`file_key`, never shown) and read on a queue into
// `extracted` and `validation` (JSON text). `supplier_key` and `number` are what duplicates are found by: the
// supplier's VAT id (else its name, lower-cased) and its invoice number, as read.
export const inboundDocuments = sqliteTable(
  'inbound_documents',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    /** Who uploaded it; null for email and network deliveries. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source', { enum: ['upload', 'email', 'network'] }).notNull(),
    status: text('status', { enum: ['received', 'processing', 'needs_review', 'accepted', 'rejected', 'failed'] }).notNull(),
    receivedAt: text('received_at').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    fileKey: text('file_key').notNull(),
    format: text('format', { enum: ['cii', 'ubl', 'facturx', 'pdf', 'image'] }),
    profile: text('profile'),
    validation: text('validation'),
    extracted: text('extracted'),
    extraction: text('extraction', { enum: ['xml', 'model'] }),
    confidence: real('confidence'),
    supplierKey: text('supplier_key'),
    number: text('number'),
    duplicateOf: text('duplicate_of'),
    expenseId: text('expense_id'),
    rejectedReason: text('rejected_reason'),
    failureReason: text('failure_reason'),
    /** The email sender (`from` in the API); null for uploads and network deliveries. */
    fromAddress: text('from_address'),
    ...timestamps,
  },
  (t) => [
    index('inbound_documents_workspace_idx').on(t.workspaceId, t.id),
    index('inbound_documents_workspace_received_idx').on(t.workspaceId, t.receivedAt),
    index('inbound_documents_workspace_sha_idx').on(t.workspaceId, t.sha256),
    index('inbound_documents_workspace_supplier_idx').on(t.workspaceId, t.supplierKey, t.number),
    index('inbound_documents_expense_idx').on(t.expenseId),
    // The cron's sweep of documents still waiting to be read (modules/inbound-documents/sweep.ts), across workspaces.
    index('inbound_documents_status_idx').on(t.status, t.updatedAt),
  ],
);
