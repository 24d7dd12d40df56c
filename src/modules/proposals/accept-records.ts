// What an accepted proposal makes in its sender's workspace (§24): a client from the poster
// workspace's issuer, a project named after the gig and a draft quote from the proposal, each with
// its event, and the sender's own `proposal.accepted` event, in one batch on the sender's database.
//
// The contract asks for the accept in one batch, but a workspace's records may live on another
// database than the directory that holds the proposal and the gig (lib/databases.ts), and no D1
// batch spans two databases. So the accept is claimed first in a guarded directory batch that names
// the ids of these records (accept.ts), and they are written here, under those ids, idempotently:
// the sender's `proposal.accepted` event is written last and marks the batch as done, every write
// holds back once it exists, and a record already there (a batch that stopped at a taken quote
// number) is not written twice. A retried accept, or the cron (finishPendingAccepts), runs this
// again for an accept whose batch is not known to have landed, until it has.
import { and, eq, exists, inArray, lt, not, sql } from 'drizzle-orm';
import { clients, events, gigs, projects, proposals, quotes, workspaces } from '../../db/schema';
import type { WorkspaceContext } from '../../lib/context';
import { databaseBinding, DIRECTORY, withDatabase } from '../../lib/databases';
import { createDb, type Db } from '../../lib/db';
import { changedRows, insertIf } from '../../lib/guarded-write';
import { fromScaledInteger } from '../../lib/money';
import { addDays, nowIso, todayIn } from '../../lib/time';
import { type ClientRow, serializeClient } from '../clients/service';
import { eventRow, recordEvent } from '../events/record';
import { buildLines } from '../invoices/lines';
import { numberIsFree, QUOTE_SEQUENCE, withInvoiceNumber } from '../invoices/numbering';
import { documentSettingsFor } from '../invoices/tax-situation';
import { type ProjectRow, serializeProject } from '../projects/service';
import { VALID_DAYS } from '../quotes/schemas';
import { type QuoteRow, storedLines } from '../quotes/serialize';
import { quoteObject } from '../quotes/service';
import { issuerOf, type WorkspaceRow } from '../workspaces/settings';
import { proposalsActor } from './notify';
import { type ProposalRow, serializeProposal } from './serialize';

type GigRow = typeof gigs.$inferSelect;

/** An accepted proposal with what its records are made from: the gig, and both workspaces' directory rows. */
export type AcceptedProposal = { proposal: ProposalRow; gig: GigRow; poster: WorkspaceRow; sender: WorkspaceRow };

/** Which database holds the sender's records. */
export const senderDatabase = (accepted: Pick<AcceptedProposal, 'sender'>) => accepted.sender.database ?? DIRECTORY;

/** The client, the project and the draft quote's line, as the accept makes them. */
function recordsOf({ proposal, gig, poster, sender }: AcceptedProposal, at: string) {
  const issuer = issuerOf(poster);
  const client: ClientRow = {
    id: proposal.clientId!, userId: proposal.userId, workspaceId: sender.id, name: issuer.legal_name ?? poster.name, email: issuer.email, company: null, phone: null,
    addressLine1: issuer.address.line1, addressLine2: issuer.address.line2, addressCity: issuer.address.city, addressRegion: issuer.address.region,
    addressPostalCode: issuer.address.postal_code, addressCountry: issuer.address.country, currency: gig.currency, taxId: issuer.vat_id,
    // Its documents speak the poster's language (§20), and its e-invoices reach the poster's workspace (§21, network).
    peppolId: issuer.peppol_id, buyerReference: null, taxTreatment: 'auto', notes: null, locale: poster.locale, status: 'active', createdAt: at, updatedAt: at,
  };
  const hourly = proposal.rateType === 'hourly' || (proposal.rateType === null && gig.budgetType === 'hourly');
  const project: ProjectRow = {
    id: proposal.projectId!, userId: proposal.userId, workspaceId: sender.id, clientId: client.id, name: gig.title, description: null, status: 'active',
    currency: gig.currency, budget: proposal.rateType === 'fixed' ? proposal.rateAmount : gig.budgetMax,
    hourlyRate: proposal.rateType === 'hourly' ? proposal.rateAmount : null, startDate: proposal.availableFrom, dueDate: null,
    timeRoundingMinutes: null, timeRoundingMode: null, createdAt: at, updatedAt: at,
  };
  // One line: the fixed amount, or the estimated hours at the hourly rate; a proposal that named no
  // rate offers the gig's budget_max (per hour on an hourly gig). Hours without an estimate: one.
  const line = {
    description: gig.title,
    quantity: hourly && proposal.estimateMilliHours !== null ? fromScaledInteger(proposal.estimateMilliHours, 3) : 1,
    unit: hourly ? 'HUR' : 'C62',
    unit_amount: proposal.rateAmount ?? gig.budgetMax,
    discount_percent: 0,
  } as const;
  return { client, project, line };
}

/** "The sender's `proposal.accepted` event is written": the batch has landed. */
const landed = (db: Db, accepted: AcceptedProposal) =>
  exists(db.select({ one: sql`1` }).from(events).where(and(eq(events.workspaceId, accepted.sender.id), eq(events.type, 'proposal.accepted'), eq(events.objectId, accepted.proposal.id))));

const has = (db: Db, table: typeof clients | typeof projects | typeof quotes, id: string) => exists(db.select({ one: sql`1` }).from(table).where(eq(table.id, id)));

/**
 * Writes the accept's records into `db`, the sender's database (the request's session there, or
 * the binding for the cron), once. `onDirectory`: that database is the directory, so the same batch
 * also clears the proposal's pending mark.
 */
export async function writeAcceptedRecords(db: Db, env: Env, accepted: AcceptedProposal, onDirectory: boolean): Promise<'written' | 'landed before'> {
  const { proposal, sender } = accepted;
  const ctx: WorkspaceContext = { db, env, workspaceId: sender.id, actor: proposalsActor, timeZone: sender.timeZone };
  const at = nowIso();
  const { client, project, line } = recordsOf(accepted, at);
  const issueDate = todayIn(sender.timeZone);
  const { rows, columns } = buildLines(proposal.quoteId!, { line_items: [line] }, documentSettingsFor(sender, client, sender.taxRounding));
  const quote: QuoteRow = {
    id: proposal.quoteId!, userId: proposal.userId, workspaceId: sender.id, number: '', status: 'draft', clientId: client.id, projectId: project.id,
    currency: accepted.gig.currency, issueDate, validUntil: addDays(issueDate, VALID_DAYS), lineItems: storedLines(rows), ...columns, taxRounding: sender.taxRounding,
    notes: null, terms: null, serviceDate: null, servicePeriodStart: null, servicePeriodEnd: null, onAccept: 'none', issuer: null, billTo: null, locale: null,
    linkVersion: null, linkHash: null, linkOrigin: null, viewedAt: null, accepted: null, declined: null, invoiceId: null, revisionOf: null, sentAt: null,
    createdAt: at, updatedAt: at, emailTo: null, emailCc: null, emailMessage: null, emailStatus: null, emailAttempts: 0, emailError: null,
    emailNextAttemptAt: null, emailLeaseUntil: null, emailSentAt: null,
  };
  const fresh = not(landed(db, accepted));
  const quoteToWrite = and(fresh, not(has(db, quotes, quote.id)))!;
  const unnumbered = sender.numberAt === 'send' ? quote.id : undefined;
  return withInvoiceNumber(ctx, undefined, async (number): Promise<'written' | 'landed before' | undefined> => {
    const results = await db.batch([
      db.select({ one: sql`1` }).from(events).where(and(eq(events.workspaceId, sender.id), eq(events.type, 'proposal.accepted'), eq(events.objectId, proposal.id))),
      insertIf(db, clients, client, and(fresh, not(has(db, clients, client.id)))!),
      recordEvent(ctx, 'client.created', serializeClient(client), { ifChanged: true, at }),
      insertIf(db, projects, project, and(fresh, not(has(db, projects, project.id)))!),
      recordEvent(ctx, 'project.created', serializeProject(project), { ifChanged: true, at }),
      ...number.before,
      insertIf(db, quotes, { ...quote, number: number.value as unknown as string }, and(quoteToWrite, numberIsFree(ctx, number.value, undefined, QUOTE_SEQUENCE))!),
      number.unnumbered
        ? recordEvent(ctx, 'quote.created', quoteObject({ ...quote, number: quote.id }), { ifChanged: true, at })
        : recordEvent(ctx, 'quote.created', quoteObject(quote), { ifChanged: true, at, fill: { number: number.value } }),
      // Last: the mark that this batch landed, written only once the quote is there.
      insertIf(db, events, eventRow(ctx, 'proposal.accepted', serializeProposal(proposal), { at }), and(fresh, has(db, quotes, quote.id))!),
      ...(onDirectory ? [db.update(proposals).set({ recordsPending: false }).where(and(eq(proposals.id, proposal.id), landed(db, accepted)))] : []),
    ]);
    if ((results[0] as unknown[]).length) return 'landed before';
    // A quote number taken by hand: nothing of the quote was written; the counter moves past it and the batch goes again.
    return changedRows(results[5 + number.before.length]) ? 'written' : undefined;
  }, quoteToWrite, QUOTE_SEQUENCE, unnumbered);
}

const PENDING_GRACE_MS = 2 * 60_000;

/** The accepted proposal `id` with what its records are made from, read from the directory. */
export async function readAccepted(directory: Db, id: string): Promise<AcceptedProposal | undefined> {
  const ofProposal = (column: typeof proposals.gigId | typeof proposals.workspaceId) => directory.select({ id: column }).from(proposals).where(eq(proposals.id, id));
  const [[proposal], [gig], [sender], [poster]] = await directory.batch([
    directory.select().from(proposals).where(eq(proposals.id, id)),
    directory.select().from(gigs).where(inArray(gigs.id, ofProposal(proposals.gigId))),
    directory.select().from(workspaces).where(inArray(workspaces.id, ofProposal(proposals.workspaceId))),
    directory.select().from(workspaces).where(inArray(workspaces.id, directory.select({ id: gigs.workspaceId }).from(gigs).where(inArray(gigs.id, ofProposal(proposals.gigId))))),
  ]);
  if (!proposal || !gig || !sender || !poster || proposal.status !== 'accepted') return undefined;
  return { proposal, gig, sender, poster };
}

/** Writes an accept's records on the sender's database (if they are not there yet), then clears its pending mark. */
export async function finishAccept(env: Env, directory: Db, senderDb: Db, accepted: AcceptedProposal): Promise<'written' | 'landed before'> {
  const onDirectory = senderDatabase(accepted) === DIRECTORY;
  const outcome = await writeAcceptedRecords(senderDb, env, accepted, onDirectory);
  if (!onDirectory) await directory.update(proposals).set({ recordsPending: false }).where(eq(proposals.id, accepted.proposal.id));
  return outcome;
}

/** Cron: accepts whose records are not known to have landed two minutes on are finished. */
export async function finishPendingAccepts(env: Env, now = new Date(), limit = 50): Promise<number> {
  const directory = createDb(databaseBinding(env, DIRECTORY));
  const due = new Date(now.getTime() - PENDING_GRACE_MS).toISOString();
  const pending = await directory
    .select({ id: proposals.id })
    .from(proposals)
    .where(and(eq(proposals.recordsPending, true), lt(proposals.acceptedAt, due)))
    .limit(limit);
  let finished = 0;
  for (const { id } of pending) {
    const accepted = await readAccepted(directory, id);
    if (!accepted) continue;
    try {
      await finishAccept(env, directory, createDb(withDatabase(env, senderDatabase(accepted)).DB), accepted);
      finished++;
    } catch (err) {
      console.warn(JSON.stringify({ level: 'warn', message: 'accepted proposal\'s records not written; the next run tries again', proposal_id: id, reason: String(err) }));
    }
  }
  return finished;
}
