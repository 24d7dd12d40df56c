import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { workspaceColumn } from './workspaces';

// §23: what an assistant proposed to do over MCP that moves money or sends a document, kept until a
// person says yes (or 10 minutes pass). The request is stored as the API would receive it, and
// confirming sends exactly that with the proposal's id as its Idempotency-Key; the first answer is
// kept, so a second confirm gets the same one. Only the key that proposed may confirm.
export const mcpProposals = sqliteTable(
  'mcp_proposals',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceColumn(),
    userId: text('user_id').notNull(),
    keyId: text('key_id').notNull(),
    /** The tool, which is the operation's operationId (`sendInvoice`). */
    tool: text('tool').notNull(),
    method: text('method').notNull(),
    /** The path with its query, as sent: `/v1/invoices/inv_…/send`. */
    path: text('path').notNull(),
    /** The JSON body, or null for an operation without one. */
    body: text('body'),
    summary: text('summary').notNull(),
    // pending → accepted (the person said yes through the client; performing follows) → confirmed, or declined or expired.
    status: text('status', { enum: ['pending', 'accepted', 'confirmed', 'declined', 'expired'] }).notNull(),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
    decidedAt: text('decided_at'),
    /** The operation's answer once performed: its status and body text. */
    resultStatus: integer('result_status'),
    resultBody: text('result_body'),
  },
  (t) => [index('mcp_proposals_workspace_idx').on(t.workspaceId, t.id), index('mcp_proposals_pending_idx').on(t.status, t.expiresAt)],
);
