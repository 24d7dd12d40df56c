import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { ROLES, users, workspaceColumn, workspaces } from './workspaces';

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    // SHA-256 of the whole key, hex. The key itself is never stored.
    keyHash: text('key_hash').notNull().unique(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.id)],
);

export const waitlist = sqliteTable(
  'waitlist',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    name: text('name'),
    company: text('company'),
    note: text('note'),
    status: text('status', { enum: ['waiting', 'invited', 'joined'] }).notNull().default('waiting'),
    ...timestamps,
  },
  (t) => [index('waitlist_status_idx').on(t.status, t.id)],
);

export const invitations = sqliteTable('invitations', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  // SHA-256 of the code, hex: a database leak does not hand out invitations.
  codeHash: text('code_hash').notNull().unique(),
  expiresAt: text('expires_at').notNull(),
  createdAt: text('created_at').notNull(),
  acceptedAt: text('accepted_at'),
  acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
  // signup: a new person (user + personal workspace); recovery: a new owner key for an existing
  // account's personal workspace; workspace: a membership in workspace_id with role.
  kind: text('kind', { enum: ['signup', 'recovery', 'workspace'] }).notNull().default('signup'),
  workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
  role: text('role', { enum: ROLES }),
  invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
  withdrawnAt: text('withdrawn_at'),
  // A workspace invitation's code is emailed to the invitee only (never shown to the inviter): it is
  // derived again from the id when the email is composed (invitation-code.ts). The email's state:
  emailStatus: text('email_status', { enum: ['queued', 'sent', 'failed'] }),
  emailAttempts: integer('email_attempts').notNull().default(0),
  emailError: text('email_error'),
  emailNextAttemptAt: text('email_next_attempt_at'),
  emailLeaseUntil: text('email_lease_until'),
  // Idempotent acceptance: SHA-256 of the Idempotency-Key and of the canonical request that accepted
  // it, and the key it minted, so a retry within 24 h replays the answer (with the secret null).
  acceptKeyHash: text('accept_key_hash'),
  acceptRequestHash: text('accept_request_hash'),
  acceptedKeyId: text('accepted_key_id'),
}, (t) => [
  index('invitations_workspace_idx').on(t.workspaceId, t.id),
  index('invitations_inviter_idx').on(t.invitedBy),
  index('invitations_email_due_idx').on(t.emailStatus, t.emailNextAttemptAt),
]);
