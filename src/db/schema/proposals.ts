import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { gigs } from './gigs';
import { users, workspaceColumn, workspaces } from './workspaces';

export const PROPOSAL_STATUSES = ['submitted', 'withdrawn', 'accepted', 'declined'] as const;

// Proposals (§24): a workspace's answer to another workspace's gig. Directory tables, next to the
// gigs they answer: the proposal concerns two workspaces, which may live on two databases
// (lib/databases.ts). `workspace_id` is the workspace that sent it; the gig names the poster's.
// Who sent it is kept as names only (`from_*`) until the poster accepts it; the accept then
// records the sender's business name and email, and the ids of the client, project and quote it
// makes in the sender's workspace.
export const proposals = sqliteTable(
  'proposals',
  {
    id: text('id').primaryKey(),
    gigId: text('gig_id').notNull().references(() => gigs.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: PROPOSAL_STATUSES }).notNull(),
    message: text('message').notNull(),
    // The rate offered, in minor units of its currency (the gig's); all three or none.
    rateType: text('rate_type', { enum: ['fixed', 'hourly'] }),
    rateAmount: integer('rate_amount'),
    rateCurrency: text('rate_currency'),
    // Hours in thousandths (1.5 h is 1500), as quantities are scaled elsewhere: no floats stored.
    estimateMilliHours: integer('estimate_milli_hours'),
    availableFrom: text('available_from'),
    /** JSON array of https URLs. */
    links: text('links').notNull().default('[]'),
    fromWorkspaceName: text('from_workspace_name').notNull(),
    fromUserName: text('from_user_name').notNull(),
    // Learnt by the poster at the accept, not before.
    fromBusinessName: text('from_business_name'),
    fromEmail: text('from_email'),
    declineReason: text('decline_reason'),
    // What the accept makes in the sender's workspace, named when the accept is claimed.
    clientId: text('client_id'),
    projectId: text('project_id'),
    quoteId: text('quote_id'),
    acceptedAt: text('accepted_at'),
    // The accept is claimed here first, then its records are written on the sender's database
    // (proposals/accept-records.ts); until a batch there is known to have landed, this stays set
    // and the cron finishes the accept.
    recordsPending: integer('records_pending', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('proposals_workspace_idx').on(t.workspaceId, t.id),
    index('proposals_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('proposals_gig_idx').on(t.gigId, t.status, t.id),
    // One live proposal per workspace and gig.
    uniqueIndex('proposals_live_uq').on(t.gigId, t.workspaceId).where(sql`${t.status} = 'submitted'`),
    index('proposals_records_pending_idx').on(t.acceptedAt).where(sql`${t.recordsPending} = 1`),
    check('proposals_rate_whole', sql`(${t.rateType} IS NULL) = (${t.rateAmount} IS NULL) AND (${t.rateType} IS NULL) = (${t.rateCurrency} IS NULL)`),
    check('proposals_rate_nonneg', sql`${t.rateAmount} IS NULL OR ${t.rateAmount} >= 0`),
  ],
);

// The emails about a proposal (kind `proposal`): to the poster when it arrives, to its sender when it
// is accepted or declined. Written in the batch of the change, sent by the emails consumer under a
// lease as the outbox's are (emails/outbox.ts), in the recipient workspace's language.
export const proposalEmails = sqliteTable(
  'proposal_emails',
  {
    id: text('id').primaryKey(),
    proposalId: text('proposal_id').notNull().references(() => proposals.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['received', 'accepted', 'declined'] }).notNull(),
    /** Who is told and in whose workspace's language: the poster for `received`, the sender otherwise. */
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['queued', 'sent', 'failed'] }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: text('next_attempt_at'),
    leaseUntil: text('lease_until'),
    sentAt: text('sent_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('proposal_emails_due_idx').on(t.status, t.nextAttemptAt), index('proposal_emails_proposal_idx').on(t.proposalId)],
);
