// How a proposal's two workspaces are told. Its changes are written in the directory, so their
// events are too, in the same batch, into DB's events table: for a workspace whose records live on
// another database that row is an outbox entry, moved there afterwards by the member events' relay
// (events/relay.ts; the cron finishes a move a failure interrupted). Emails (kind `proposal`) are
// rows of proposal_emails in the same batch, sent by the emails consumer (email.ts).
//
// An event written into the other side's workspace names no person: its actor is the `proposals`
// job, since neither side may see the other's user id (§24); an event in the actor's own
// workspace names them as every event does.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { proposalEmails } from '../../db/schema';
import type { Actor, ServiceContext, WorkspaceContext } from '../../lib/context';
import { DIRECTORY } from '../../lib/databases';
import type { Db } from '../../lib/db';
import { flatList } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { eventRow } from '../events/record';
import { relayEventsOf } from '../events/relay';
import type { EventType } from '../events/types';
import type { ProposalObject } from './serialize';

export const PROPOSALS_JOB = 'proposals';
export const proposalsActor: Actor = { type: 'system', id: null, name: PROPOSALS_JOB };

export type ProposalEmailRow = typeof proposalEmails.$inferSelect;

/** Where a workspace's records live, as the directory names it (null: DB). */
export type Placed = { workspaceId: string; database: string | null };

/** What a change leaves to do once it is written: events to relay, emails to queue. */
export type Aftermath = { relay: Placed[]; emails: string[] };

/** The context to write `workspaceId`'s event about a proposal in: the directory, as `actor`. */
export function eventContext(ctx: ServiceContext, workspaceId: string, actor: Actor = proposalsActor): WorkspaceContext {
  return { db: ctx.directory, env: ctx.env, workspaceId, actor, timeZone: 'UTC' };
}

/** A proposal's email, queued now, for the batch of the change that causes it. */
export function queuedEmail(proposalId: string, kind: ProposalEmailRow['kind'], to: { userId: string; workspaceId: string }, at: string): ProposalEmailRow {
  return {
    id: newId('emailDelivery'), proposalId, kind, userId: to.userId, workspaceId: to.workspaceId, status: 'queued', attempts: 0, lastError: null,
    nextAttemptAt: at, leaseUntil: null, sentAt: null, createdAt: at,
  };
}

/** The event rows of a change that tells many workspaces at once (an accept's declines), for insertRowsIf. */
export const eventRows = (ctx: ServiceContext, type: EventType, told: { workspaceId: string; object: ProposalObject }[], at: string) =>
  told.map(({ workspaceId, object }) => eventRow(eventContext(ctx, workspaceId), type, object, { at }));

/**
 * INSERTs of `rows` into `table`, as many rows a statement as D1's 100 bound parameters allow,
 * each writing nothing unless `condition` holds: the many-row form of guarded-write's insertIf
 * (values in the table's column order, a column a row leaves out taking its schema default).
 */
export function insertRowsIf<T extends SQLiteTable>(db: Db, table: T, rows: T['$inferInsert'][], condition: SQL) {
  const columns = Object.entries(getTableColumns(table));
  const perStatement = Math.max(1, Math.floor(100 / columns.length));
  const statements = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const tuples = rows.slice(i, i + perStatement).map((row) => {
      const values = columns.map(([key, column]) => {
        const value = (row as Record<string, unknown>)[key];
        return value !== undefined ? value : (column.default ?? null);
      });
      return sql`(${flatList(values)})`;
    });
    statements.push(db.insert(table).select(sql`SELECT * FROM (VALUES ${sql.join(tuples, sql`, `)}) WHERE ${condition}`));
  }
  return statements;
}

/** After the change: relays the events written for workspaces elsewhere, and queues the emails. */
export async function finishAftermath(env: Env, aftermath: Aftermath): Promise<void> {
  const elsewhere = new Map(aftermath.relay.filter((p) => p.database && p.database !== DIRECTORY).map((p) => [p.workspaceId, p.database!]));
  for (const [workspaceId, database] of elsewhere) await relayEventsOf(env, workspaceId, database);
  await enqueueProposalEmails(env, aftermath.emails);
}

export async function enqueueProposalEmails(env: Env, ids: string[], delaySeconds = 0): Promise<void> {
  for (let i = 0; i < ids.length; i += 100) {
    await env.EMAILS_QUEUE.sendBatch(ids.slice(i, i + 100).map((id) => ({ body: { proposal_email_id: id }, delaySeconds }))).catch((err) =>
      console.warn(JSON.stringify({ level: 'warn', message: 'proposal email not enqueued; the sweep will send it', count: ids.length, reason: String(err) })),
    );
  }
}
