// The database, as drizzle sees it: the source of truth for migrations (`npm run db:generate`).
// Money columns are integers in the currency's minor unit. Timestamps are RFC 3339 strings with
// milliseconds; calendar dates are YYYY-MM-DD strings, so both sort and compare as text.
// Records belong to a workspace: every such table leads its indexes with workspace_id, since each
// query filters by workspace first. `user_id` on a record says which user made it.
// One file per module's tables; this file gathers them, so `db/schema` is still the one import.
export * from './workspaces';
export * from './access';
export * from './clients';
export * from './projects';
export * from './invoices';
export * from './dashboard';
export * from './payments';
export * from './credit-notes';
export * from './expenses';
export * from './events';
export * from './idempotency';
export * from './gigs';
export * from './transfers';
export * from './suggestions';
export * from './webhooks';
export * from './emails';
export * from './recurring-invoices';
export * from './time-entries';
export * from './quotes';
export * from './inbound-documents';
export * from './inbound-addresses';
export * from './proposals';
export * from './mcp-proposals';
export * from './rates';
export * from './books';
export * from './exports';
