import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { workspaces } from './workspaces';

// §21: each workspace's inbound email address, in the directory (DB), where the email handler looks it up before it
// knows the workspace. The token itself is never stored: it is made again from `nonce` under the server secret
// (lib/server-token.ts), and found by its SHA-256. Rotating draws a new nonce, so the old address finds nothing.
export const inboundAddresses = sqliteTable('inbound_addresses', {
  workspaceId: text('workspace_id').primaryKey().references(() => workspaces.id, { onDelete: 'cascade' }),
  nonce: text('nonce').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  ...timestamps,
});
